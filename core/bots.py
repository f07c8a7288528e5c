"""D18: how a house bot plays: which word, and after how long.

Skill levels differ the way people do:

- **easy** thinks longest and sometimes lets the clock run out; its vocabulary holds thousands of
  rare words that are never secrets, so its guesses are often long shots; and now and then it
  reads only the green tiles of the board (an error: it plays a word the board already rules out).
- **medium** knows fewer rare words, compares a few candidates by how common their letters are
  among the words still possible, and slips less often.
- **hard** knows exactly which words can be secrets, never slips, thinks fast, and plays the
  candidate that splits the remaining candidates best (the smallest expected number left,
  core.solver).

The board is shared (D4), so a bot learns from every row, its own and its opponent's. It never
sees the secret: everything here is a function of the public board, the lexicon and randomness
the caller passes in. For a house bot seat that randomness comes from the tournament's stored
seed, the duel and the row (`think_ms`, `house_word`), so every process that advances the
tournament computes the same move at the same time (D10).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache

from core import seeds
from core.duel import Word
from core.solver.board import BoardRow, Row
from core.solver.lexicon import Bits, Lexicon, members
from core.solver.split import consistent, expected_left


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    think_median: float  # median thinking time, as a fraction of the turn
    think_sigma: float  # spread of the (log-normal) thinking time
    skip_chance: float  # chance to let the turn time out (R11)
    slip_chance: float  # chance to play from the green tiles alone
    compare: int  # candidate words compared per pick; 1 plays a random one
    informed: bool  # compares by how well a word splits the candidates (else letter frequency)
    rare_words: int  # accepted non-secret words it also believes possible (core.solver.lexicon)


EASY = Skill("easy", 0.5, 0.45, 0.06, 0.3, 1, False, 4000)
MEDIUM = Skill("medium", 0.35, 0.4, 0.03, 0.15, 3, False, 2000)
HARD = Skill("hard", 0.22, 0.35, 0.0, 0.0, 40, True, 0)
SKILLS = {s.name: s for s in (EASY, MEDIUM, HARD)}

# A bot never plays in the first or last moments of a turn, as fractions of it.
THINK_MIN, THINK_MAX = 0.08, 0.9


def skill_for_rating(rating: float) -> Skill:
    """A bot plays like the players of its rating: weaker below 950, strong from 1100."""
    if rating < 950:
        return EASY
    if rating < 1100:
        return MEDIUM
    return HARD


# ---------------------------------------------------------------------------- thinking


def _think(skill: Skill, turn_ms: float, skip: float, z: float) -> float | None:
    if skip < skill.skip_chance:
        return None
    t = skill.think_median * turn_ms * math.exp(skill.think_sigma * z)
    return min(max(t, THINK_MIN * turn_ms), THINK_MAX * turn_ms)


def think_seconds(skill: Skill, turn_s: float, rng: random.Random) -> float | None:
    """Seconds to think before playing, or None to let the turn time out (for a bot that keeps
    its own generator: api/bots/client.py)."""
    skip = rng.random()
    return _think(skill, turn_s, skip, rng.gauss(0.0, 1.0))


@lru_cache(maxsize=8192)
def think_ms(seed: int, duel_id: str, row: int, rating: int, turn_ms: int) -> int | None:
    """How long a house bot of `rating` thinks on board row `row` of duel `duel_id`, in ms from
    the start of its turn; None when it lets the clock run out (R11).

    Drawn from (seed, duel, row) alone: cheap (no word list), so `next_deadline` can ask on
    every poll; cached because it does."""
    skip, u1, u2 = seeds.uniforms(seed, duel_id, row, "think")
    t = _think(skill_for_rating(rating), turn_ms, skip, seeds.normal(u1, u2))
    return None if t is None else int(t)


# ---------------------------------------------------------------------------- choosing


def vocabulary(lex: Lexicon, skill: Skill, rng: random.Random) -> Bits:
    """What a bot believes can be the secret: every secret, and `skill.rare_words` of the
    lexicon's rare words (a window of them at a random place)."""
    secrets = len(lex.secrets)
    pool = len(lex.universe) - secrets
    k = min(skill.rare_words, pool)
    if k <= 0:
        return lex.all_secrets
    start = rng.randrange(pool)
    window = (1 << k) - 1
    rare = (window << start) & ((1 << pool) - 1)
    rare |= window >> (pool - start)  # the part that wraps round to the start
    return lex.all_secrets | rare << secrets


def _greens(lex: Lexicon, within: Bits, rows: Sequence[Row]) -> Bits:
    for word, marks in rows:
        for i, (tile, mark) in enumerate(zip(word, marks, strict=True)):
            if mark == "G":
                within &= lex.at[i].get(tile, 0)
    return within


def _without(lex: Lexicon, bits: Bits, words: Collection[Word]) -> Bits:
    for w in words:
        j = lex.bit.get(tuple(w))
        if j is not None:
            bits &= ~(1 << j)
    return bits


def pick(
    lex: Lexicon,
    skill: Skill,
    rows: Sequence[Row],
    believed: Bits,
    rng: random.Random,
    exclude: Collection[Word] = (),
) -> Word:
    """The word a bot of `skill` plays after the guessed `rows` of its board, believing the
    words of `believed` possible (`vocabulary`). `exclude`: words it must not play (already
    refused by the server, R13)."""
    played = {w for w, _ in rows} | {tuple(w) for w in exclude}
    everything = (1 << len(lex.universe)) - 1
    left = believed
    for word, marks in rows:
        left = consistent(lex, left, word, marks)
    if not left:
        # The secret is outside what this bot believed possible: widen to every word it knows of.
        left = everything
        for word, marks in rows:
            left = consistent(lex, left, word, marks)
    pool_bits = _without(lex, left, played)
    if rows and rng.random() < skill.slip_chance:
        loose = _without(lex, _greens(lex, believed, rows), played)
        if loose:
            return lex.universe[_nth(loose, rng.randrange(loose.bit_count()))]
    if not pool_bits:
        spare = _without(lex, everything, played)
        return lex.universe[_nth(spare, rng.randrange(spare.bit_count()))] if spare else rows[0][0]
    pool = members(pool_bits)
    universe = lex.universe
    if len(pool) <= 2 or skill.compare <= 1:
        return universe[pool[0]] if skill.informed else universe[rng.choice(pool)]
    options = [universe[j] for j in rng.sample(pool, min(skill.compare, len(pool)))]
    if skill.informed:
        return min(options, key=lambda o: expected_left(lex, pool_bits, o))
    common = {t: (pool_bits & lex.has(t)).bit_count() for o in options for t in o}
    return max(options, key=lambda o: sum(common[t] for t in set(o)))


def _nth(bits: Bits, n: int) -> int:
    """The bit number of the n-th (0-based) set bit of `bits`."""
    lo, hi = 0, bits.bit_length()
    # the smallest m with n + 1 set bits below it
    while lo < hi:
        mid = (lo + hi) // 2
        if (bits & ((1 << mid) - 1)).bit_count() > n:
            hi = mid
        else:
            lo = mid + 1
    return lo - 1


def house_word(
    seed: int, duel_id: str, row: int, rating: int, board: Sequence[BoardRow], lex: Lexicon
) -> Word:
    """The word a house bot of `rating` plays on row `row` of duel `duel_id`, whose public board
    so far is `board` (D4; `row == len(board)`). Its vocabulary is the same on all its rows of
    the duel (drawn from the seed, the duel and its seat); its choice is drawn from the row."""
    skill = skill_for_rating(rating)
    believed = vocabulary(lex, skill, seeds.stream(seed, duel_id, row % 2, "vocabulary"))
    rows = [r for r in board if r is not None]
    return pick(lex, skill, rows, believed, seeds.stream(seed, duel_id, row, "word"))
