"""R4, R6, D2: random pairing that avoids rematches and never repeats a bye."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

Matching = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Pairing:
    pairs: tuple[tuple[str, str], ...]
    bye: str | None


@cache
def _matchings(n: int) -> tuple[Matching, ...]:
    """Every perfect matching of range(n), in a fixed order (n even)."""
    if n == 0:
        return ((),)
    result = []
    for partner in range(1, n):
        rest = [i for i in range(1, n) if i != partner]
        for sub in _matchings(n - 2):
            result.append(((0, partner), *((rest[a], rest[b]) for a, b in sub)))
    return tuple(result)


def _bit(a: int, b: int) -> int:
    return 1 << (a * 8 + b) | 1 << (b * 8 + a)


@cache
def _options(n: int, bye: int | None) -> tuple[tuple[Matching, int], ...]:
    """Every matching of the players 0..n-1 but `bye`, with its pairs as a bit mask."""
    rest = [i for i in range(n) if i != bye]
    options = []
    for matching in _matchings(len(rest)):
        pairs = tuple((rest[a], rest[b]) for a, b in matching)
        mask = 0
        for a, b in pairs:
            mask |= _bit(a, b)
        options.append((pairs, mask))
    return tuple(options)


def _fewest_repeats(
    players: Sequence[str],
    previous_opponents: frozenset[frozenset[str]],
    previous_bye: str | None,
) -> tuple[tuple[Matching, int | None], ...]:
    n = len(players)
    if not 2 <= n <= 8:
        raise ValueError("pairing takes 2 to 8 players")
    index = {p: i for i, p in enumerate(players)}
    previous = 0
    for pair in previous_opponents:
        a, b = (index.get(p) for p in pair)
        if a is not None and b is not None:
            previous |= _bit(a, b)
    return _best(n, previous, index.get(previous_bye) if previous_bye is not None else None)


@lru_cache(maxsize=8192)
def _best(
    n: int, previous: int, previous_bye: int | None
) -> tuple[tuple[Matching, int | None], ...]:
    """The choices for players 0..n-1 with the fewest repeats of the `previous` pairs.

    With at most 8 players there are at most 105 choices, so they are all enumerated.
    """
    byes: list[int | None] = [i for i in range(n) if i != previous_bye] if n % 2 else [None]
    best: list[tuple[Matching, int | None]] = []
    fewest = n
    for bye in byes:
        for pairs, mask in _options(n, bye):
            repeats = (mask & previous).bit_count()  # each repeated pair sets two bits
            if repeats < fewest:
                fewest, best = repeats, []
            if repeats == fewest:
                best.append((pairs, bye))
    return tuple(best)


def _named(players: Sequence[str], pairs: Matching, bye: int | None) -> Pairing:
    return Pairing(
        tuple((players[a], players[b]) for a, b in pairs), None if bye is None else players[bye]
    )


def candidates(
    players: Sequence[str],
    previous_opponents: frozenset[frozenset[str]],
    previous_bye: str | None,
) -> list[Pairing]:
    """D2: every (bye, pairs) choice with the fewest repeats of a previous-round opponent."""
    best = _fewest_repeats(players, previous_opponents, previous_bye)
    return [_named(players, pairs, bye) for pairs, bye in best]


def pair(
    players: Sequence[str],
    previous_opponents: frozenset[frozenset[str]],
    previous_bye: str | None,
    rng: random.Random,
) -> Pairing:
    """D2: choose uniformly at random among the pairings with the fewest repeats."""
    pairs, bye = rng.choice(_fewest_repeats(players, previous_opponents, previous_bye))
    return _named(players, pairs, bye)
