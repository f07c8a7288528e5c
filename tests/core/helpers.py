"""Fakes and helpers for the core tests: a deterministic word source, tournament builders,
drivers that play rounds to a chosen result, and the invariants every tournament must keep."""

from __future__ import annotations

import functools
import itertools
import json
import random
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from core import serialization
from core import tournament as tm
from core.duel import Duel, Word
from core.events import Event
from core.evolve import evolve
from core.feedback import score
from core.solver.lexicon import Lexicon
from core.timing import MAX_ROWS, Timing
from core.words import WORD_LENGTHS, WordSource

PIDS = tuple(f"p{i}" for i in range(8))
NEVER = 10**12  # a reconnect window that never runs out
NO_DISCONNECTS = Timing(reconnect_ms=NEVER)
TURN = Timing().turn_ms
INTRO = Timing().intro_ms
RECONNECT = Timing().reconnect_ms


def word(text: str) -> Word:
    return tuple(text)


# ---------------------------------------------------------------------------- fake word lists


def _words(alphabet: str, length: int, count: int) -> list[Word]:
    return list(itertools.islice(itertools.product(alphabet, repeat=length), count))


# Secrets use letters a-h, wrong guesses r-y: a wrong guess can never be a secret.
SECRETS: dict[int, list[Word]] = {n: _words("abcdefgh", n, 40) for n in WORD_LENGTHS}
WRONG: dict[int, list[Word]] = {n: _words("rstuvwxy", n, 20) for n in WORD_LENGTHS}
UNLISTED: dict[int, Word] = {n: ("q",) * n for n in WORD_LENGTHS}  # right length, not a word


@dataclass
class FakeWords:
    """A deterministic word source that records what core asked of it."""

    secrets: Mapping[int, Sequence[Word]] = field(default_factory=lambda: SECRETS)
    extra: Collection[Word] = field(
        default_factory=lambda: frozenset(w for ws in WRONG.values() for w in ws)
    )
    draws: list[tuple[int, frozenset[Word]]] = field(default_factory=list)

    def accepts(self, w: Word) -> bool:
        return w in self.extra or w in self.secrets.get(len(w), ())

    def draw(self, length: int, rng: random.Random, exclude: Collection[Word]) -> Word:
        self.draws.append((length, frozenset(exclude)))
        choices = [w for w in self.secrets[length] if w not in exclude]
        return rng.choice(choices)

    def lexicon(self, length: int) -> Lexicon:
        return _lexicon(tuple(self.secrets[length]), tuple(WRONG[length]))

    @property
    def source(self) -> WordSource:
        return WordSource(self.accepts, self.draw, self.lexicon)


@functools.cache
def _lexicon(secrets: tuple[Word, ...], others: tuple[Word, ...]) -> Lexicon:
    return Lexicon.build(secrets, others)


WORDS = FakeWords().source


@functools.cache
def real_words(language: str) -> WordSource:
    """A language's real lists (D12), as the shell passes them, with the solver's lexicons (the
    shell's own: api.words, blocked words withheld)."""
    from api import words

    return words.word_source(language)


def wrong_guess(secret: Word, i: int = 0) -> Word:
    """An accepted word of the secret's length that is not the secret."""
    return WRONG[len(secret)][i % len(WRONG[len(secret)])]


# ---------------------------------------------------------------------------- building


def seats(ratings: Sequence[int] | None = None, house: Collection[str] = ()) -> list[tm.Seat]:
    """Eight seats; those in `house` are house bots (D18)."""
    ratings = ratings or [1000] * 8
    return [
        tm.Seat(pid, f"Nick {pid}", r, bot=pid in house, house=pid in house)
        for pid, r in zip(PIDS, ratings, strict=True)
    ]


def start(
    seed: int = 0,
    ratings: Sequence[int] | None = None,
    timing: Timing = NO_DISCONNECTS,
    now: int = 0,
    words: WordSource = WORDS,
    language: str = "en",
    house: Collection[str] = (),
) -> tm.Tournament:
    t, _ = tm.start("t1", language, seats(ratings, house), now, random.Random(seed), words, timing)
    return t


def with_lives(t: tm.Tournament, lives: Mapping[str, int]) -> tm.Tournament:
    """The same tournament with some players' lives set: a quick way to reach late situations."""
    return evolve(t, players=tuple(evolve(p, lives=lives.get(p.id, p.lives)) for p in t.players))


def duel_of(t: tm.Tournament, player: str) -> Duel:
    duel = t.round.duel_of(player)
    assert duel is not None, f"{player} has no duel in round {t.round.number}"
    return duel


def opponent(t: tm.Tournament, player: str) -> str:
    return duel_of(t, player).opponent(player)


def to_json(t: tm.Tournament) -> str:
    return json.dumps(serialization.to_dict(t), sort_keys=True)


# ---------------------------------------------------------------------------- driving

Result = Callable[[Duel], str | None]  # the winner of a duel, or None for a draw


def _guess_for(duel: Duel, winner: str | None) -> Word:
    player = duel.to_play
    return duel.secret if player == winner else wrong_guess(duel.secret, len(duel.turns))


def play_duel(
    t: tm.Tournament, duel_id: str, winner: str | None, now: int, words: WordSource = WORDS
) -> tuple[tm.Tournament, int, list[Event]]:
    """Play one duel of the current round to `winner` (None: a draw), one guess a second."""
    return _play(t, {duel_id: winner}, now, words)


def play_round(
    t: tm.Tournament, result: Result, now: int | None = None, words: WordSource = WORDS
) -> tuple[tm.Tournament, int, list[Event]]:
    """Play every duel of the current round to `result(duel)`, side by side, one guess a second
    in each; returns the tournament just after the round closed and the time of the last guess."""
    number = t.round.number
    wanted = {d.id: result(d) for d in t.round.duels if d.ended_at is None}
    t, now, events = _play(t, wanted, now, words)
    assert t.finished or t.round.number == number + 1
    return t, now, events


def _play(
    t: tm.Tournament, wanted: Mapping[str, str | None], now: int | None, words: WordSource
) -> tuple[tm.Tournament, int, list[Event]]:
    number = t.round.number
    now = t.round.starts_at if now is None else max(now, t.round.starts_at)
    events: list[Event] = []
    while t.round.number == number:
        todo = [d.id for d in t.round.duels if d.id in wanted and d.ended_at is None]
        if not todo:
            break
        for duel_id in todo:
            if t.round.number != number:
                break
            d = next(x for x in t.round.duels if x.id == duel_id)
            t, ev = tm.guess(t, d.to_play, len(d.turns), _guess_for(d, wanted[d.id]), now, words)
            events += ev
        now += 1000
    return t, now, events


def first_wins(d: Duel) -> str | None:
    return d.players[0]


def lower_index_wins(d: Duel) -> str | None:
    return min(d.players)


def loses(*losers: str) -> Result:
    """Everyone in `losers` loses their duel (a draw when two of them meet); others: lower wins."""

    def result(d: Duel) -> str | None:
        a, b = d.players
        if a in losers and b in losers:
            return None
        if a in losers:
            return b
        if b in losers:
            return a
        return min(d.players)

    return result


def play_out(
    t: tm.Tournament, result: Result = lower_index_wins, words: WordSource = WORDS
) -> tuple[tm.Tournament, list[Event]]:
    events: list[Event] = []
    now = t.round.starts_at
    while not t.finished:
        t, now, ev = play_round(t, result, now, words)
        events += ev
    return t, events


# ---------------------------------------------------------------------------- reference rules


def round_half_away(x: Decimal) -> int:
    return int(x.quantize(Decimal(1), rounding=ROUND_HALF_UP))  # HALF_UP is away from zero


def expected_change(player: str, ratings: Mapping[str, int], places: Mapping[str, int]) -> int:
    """D5, written independently of core.rating (unplaced players finish above)."""
    total = 0.0
    own_place = places[player]
    for other, r in ratings.items():
        if other == player:
            continue
        theirs = places.get(other)
        s = 0.0 if theirs is None or theirs < own_place else 0.5 if theirs == own_place else 1.0
        total += s - 1 / (1 + 10 ** ((r - ratings[player]) / 400))
    return round_half_away(Decimal(total) * 50 / 7)


R17_TABLE = {1: 25, 2: 18, 3: 11, 4: 4, 5: -4, 6: -11, 7: -18, 8: -25}


def matchings(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        for sub in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *sub]


def brute_force_pairings(
    players: Sequence[str], previous: Iterable[frozenset[str]], previous_bye: str | None
) -> tuple[int, set[tuple[frozenset[frozenset[str]], str | None]]]:
    """D2 by brute force: the fewest repeats and every (pairs, bye) choice achieving it."""
    fewest, best = _brute_force(tuple(players), frozenset(previous), previous_bye)
    return fewest, set(best)


@functools.lru_cache(maxsize=4096)
def _brute_force(
    players: tuple[str, ...], prev: frozenset[frozenset[str]], previous_bye: str | None
) -> tuple[int, frozenset[tuple[frozenset[frozenset[str]], str | None]]]:
    byes: list[str | None] = (
        [p for p in players if p != previous_bye] if len(players) % 2 else [None]
    )
    scored = []
    for bye in byes:
        rest = [p for p in players if p != bye]
        for m in matchings(rest):
            pairs = frozenset(frozenset(pair) for pair in m)
            scored.append((len(pairs & prev), pairs, bye))
    fewest = min(s for s, _, _ in scored)
    return fewest, frozenset((pairs, bye) for s, pairs, bye in scored if s == fewest)


# ---------------------------------------------------------------------------- invariants


def _rank_key(p: tm.Player) -> tuple[float, bool, bool]:
    """Higher is better: out later, still alive (the winner), did not leave (D8)."""
    out = float("inf") if p.out_round is None else float(p.out_round)
    return (out, p.lives > 0, p.left_at is None)


def check_invariants(t: tm.Tournament, lives_from_duels: bool = True) -> None:
    """Everything that must hold in any tournament. Pass `lives_from_duels=False` for states
    built with `with_lives`, whose lives do not follow from their duels."""
    players = {p.id: p for p in t.players}
    # lives (R1, R7)
    for p in t.players:
        assert 0 <= p.lives <= 3, p
        if p.left_at is not None:
            assert p.lives == 0
        if p.house:  # D18: house bots are bots, never disconnect and never leave
            assert p.bot and p.left_at is None
    # rounds: who plays, byes, pairings (R2, R4, R6, D2)
    secrets: list[Word] = []
    for i, rnd in enumerate(t.rounds):
        assert rnd.number == i + 1
        in_play = [x for d in rnd.duels for x in d.players] + ([rnd.bye] if rnd.bye else [])
        assert len(in_play) == len(set(in_play)), rnd
        still_in = {p.id for p in t.players if p.out_round is None or p.out_round >= rnd.number}
        assert set(in_play) == still_in, f"round {rnd.number}: {in_play} vs {still_in}"
        assert (rnd.bye is not None) == (len(in_play) % 2 == 1)
        if i:
            prev = t.rounds[i - 1]
            assert rnd.bye is None or rnd.bye != prev.bye, "bye twice in a row (R4)"
            previous = [frozenset(d.players) for d in prev.duels]
            fewest, _ = brute_force_pairings(in_play, previous, prev.bye)
            repeats = sum(frozenset(d.players) in previous for d in rnd.duels)
            assert repeats == fewest, f"round {rnd.number}: avoidable rematch (D2)"
            assert rnd.intro_at == prev.ended_at
        assert rnd.starts_at == rnd.intro_at + t.timing.intro_ms
        closed = rnd.ended_at is not None
        assert closed == (i < len(t.rounds) - 1 or t.finished)
        if closed:
            assert all(d.ended_at is not None for d in rnd.duels)
            assert rnd.ended_at == max(d.ended_at or 0 for d in rnd.duels)
        for d in rnd.duels:
            secrets.append(d.secret)
            _check_duel(t, d, players)
    assert len(secrets) == len(set(secrets)), "a secret was used twice (D13)"
    assert all(len(s) in WORD_LENGTHS for s in secrets)
    # lives follow the duels (R5, R6, R14, D8)
    for p in t.players:
        if lives_from_duels and p.left_at is None:
            lost = sum(
                1
                for rnd in t.rounds
                for d in rnd.duels
                if p.id in d.players and d.ended_at is not None and d.winner != p.id
            )
            assert p.lives == max(0, 3 - lost), p
    # places and ratings (R8, D1, D8, R15–R17, D5)
    placed = {p.id: p.place for p in t.players if p.place is not None}
    ratings = {p.id: p.rating for p in t.players}
    for p in t.players:
        if p.place is None:
            assert p.out_round is None and p.rating_change is None
            assert not t.finished
            continue
        assert p.out_round is not None and p.out_round <= len(t.rounds)
        better = sum(1 for q in t.players if _rank_key(q) > _rank_key(p))
        assert p.place == 1 + better, p
        assert p.rating_change == expected_change(p.id, ratings, placed), p
    alive = [p for p in t.players if p.lives > 0]
    if t.finished:  # D18: a tournament ends at once when only house bots are left
        assert len(alive) <= 1 or all(p.house for p in alive)
    else:
        people_in = any(not p.house and p.place is None for p in t.players)
        assert len(alive) >= 2 and (people_in or len(t.rounds) == 1)
    if t.finished:
        firsts = [p for p in t.players if p.place == 1]
        if alive:
            assert firsts == alive
        else:  # R8: the last round eliminated everyone left; they share first place
            assert len(firsts) >= 2 and all(p.out_round == len(t.rounds) for p in firsts)
        if set(ratings.values()) == {1000} and sorted(placed.values()) == list(range(1, 9)):
            assert {p.place: p.rating_change for p in t.players} == R17_TABLE
    else:
        current = t.round.number
        assert all(p.out_round is None or p.out_round < current for p in t.players)
    # round trip
    assert serialization.from_dict(json.loads(to_json(t))) == t


def _check_duel(t: tm.Tournament, d: Duel, players: Mapping[str, tm.Player]) -> None:
    assert len(d.turns) <= MAX_ROWS
    assert d.turn_ms == t.timing.turn_ms
    started = d.starts_at
    for i, turn in enumerate(d.turns):
        assert turn.player == d.players[i % 2], "turns alternate (R10)"
        if turn.word is None:
            assert turn.at == started + d.turn_ms, "a skip happens at the deadline (R11)"
        else:
            assert started <= turn.at < started + d.turn_ms
            assert turn.marks == score(d.secret, turn.word)
            assert turn.word != d.secret or i == len(d.turns) - 1
        started = turn.at
    if d.ended_at is None:
        assert d.winner is None and not d.forfeit
        return
    if d.forfeit:
        assert d.winner is not None
        leaver = players[d.opponent(d.winner)]
        assert leaver.left_at == d.ended_at
    elif d.winner is not None:  # R11, R12: only a solving guess wins
        last = d.turns[-1]
        assert last.player == d.winner and last.word == d.secret and last.at == d.ended_at
    else:  # R14: a draw is a full board without the secret
        assert len(d.turns) == MAX_ROWS and all(x.word != d.secret for x in d.turns)
        assert d.ended_at == d.turns[-1].at
