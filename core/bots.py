"""D18: how a bot plays: which word, and after how long.

Three styles of play differ the way people do:

- **easy** believes thousands of rare words possible that are never secrets, so its guesses are
  often long shots, and picks among the words it believes possible at random; now and then it
  reads only the green tiles of the board (a slip: it plays a word the board already rules out).
- **medium** knows fewer rare words, compares a few candidates by how common their letters are
  among the words still possible, and slips less often.
- **hard** knows exactly which words can be secrets, never slips, and plays the candidate that
  splits the remaining candidates best (the smallest expected number left, core.solver).

The board is shared (D4), so a bot learns from every row, its own and its opponent's. It never
sees the secret: everything here is a function of the public board, the lexicon and randomness
the caller passes in.

**House bots** (D18) play in the style of their rating band, but at the pace of the people the
simulator models (core.people.PlayerModel, docs/simulator.md), so that a bot of rating R
places among people of R like one of them and makes no round longer:

- they think like people: log-normal, median half the turn, shape 0.4; a turn whose thinking
  would reach its end is let go (R11), about 4 % of turns as for people; the others they play
  a tenth sooner than that thinking time (HOUSE_PACE), so that rounds with bots take no longer
  than rounds of people (a bot's first rows find the secret less often than people's lucky
  first guesses, which would otherwise lengthen a round that waits for its slowest duel);
- they find the secret as often as people of their rating do: with i guesses on the board and c
  words it believes possible, a house bot plays one of them with the chance
  min(1, aim × c), aim = BOOST × (the modelled person's chance to solve with i guesses at its
  rating), so that its chance to solve is exactly aim whenever c ≤ 1 / aim; otherwise it plays
  a word that cannot be the secret but tells it more (the hard style's best probe; for the
  others a word that fits the green tiles, or any accepted word). BOOST makes up for the first
  rows, where c > 1 / aim and a bot solves less often than a person; it was calibrated so that
  one bot among seven people of its rating places 4.5 on average (docs/simulator.md).

Their randomness comes from the tournament's stored seed, the duel and the row (`think_ms`,
`house_word`), so every process that advances the tournament computes the same move at the same
time (D10).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import pairwise

from core import seeds
from core.duel import Word
from core.feedback import CORRECT
from core.people import PlayerModel
from core.solver.board import BoardRow, Row
from core.solver.lexicon import Bits, Lexicon, members, nth
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

# A bot never plays in the first moments of a turn (nobody types that fast), and a bot that
# plays through the API not in its last ones (its guess must arrive in time): fractions of it.
THINK_MIN, THINK_MAX = 0.08, 0.9

PEOPLE = PlayerModel()  # whose pace house bots keep
REAL_TURN_S = 30.0  # R10: the turn people's thinking time was modelled for
# House bots let a turn go exactly as often as people, and play the others this much sooner:
# rounds with bots are then no longer than rounds of people (docs/simulator.md).
HOUSE_PACE = 0.9
# House bots' BOOST (see the module docstring): (rating, boost) anchors, linear in between and
# flat beyond the ends, from the calibration in docs/simulator.md.
BOOSTS: tuple[tuple[int, float], ...] = (
    (600, 0.41),
    (700, 0.68),
    (800, 0.85),
    (1000, 1.1),
    (1200, 1.3),
    (1300, 1.8),
    (1400, 4.0),  # full strength: from about 1350 a bot is weaker than the people of its rating
)


def skill_for_rating(rating: float) -> Skill:
    """The style of play of a bot of `rating`: easy below 950, hard from 1150."""
    if rating < 950:
        return EASY
    if rating < 1150:
        return MEDIUM
    return HARD


@lru_cache(maxsize=512)
def house_skill(rating: int) -> Skill:
    """A house bot's skill: its rating's style, at people's pace (no slips: see `house_aim`)."""
    return replace(
        skill_for_rating(rating),
        think_median=PEOPLE.think_median_s / REAL_TURN_S,
        think_sigma=PEOPLE.think_sigma,
        skip_chance=0.0,
        slip_chance=0.0,
    )


@lru_cache(maxsize=512)
def _hazard(rating: int) -> tuple[float, ...]:
    return PEOPLE.hazard_at(rating)


def boost(rating: float) -> float:
    """BOOST at `rating` (see BOOSTS)."""
    anchors = BOOSTS
    if rating <= anchors[0][0]:
        return anchors[0][1]
    for (r0, b0), (r1, b1) in pairwise(anchors):
        if rating <= r1:
            return b0 + (b1 - b0) * (rating - r0) / (r1 - r0)
    return anchors[-1][1]


def house_aim(rating: int, guesses: int) -> float:
    """The chance a house bot of `rating` aims to find the secret with, when `guesses` guesses
    are on the board: BOOST × a modelled person's (see the module docstring)."""
    hazard = _hazard(rating)
    return boost(rating) * hazard[min(guesses, len(hazard) - 1)]


# ---------------------------------------------------------------------------- thinking


def _think(skill: Skill, turn: float, skip: float, z: float) -> float | None:
    if skip < skill.skip_chance:
        return None
    t = skill.think_median * turn * math.exp(skill.think_sigma * z)
    return min(max(t, THINK_MIN * turn), THINK_MAX * turn)


def think_seconds(skill: Skill, turn_s: float, rng: random.Random) -> float | None:
    """Seconds to think before playing, or None to let the turn time out (for a bot that keeps
    its own generator and plays through the API: api/bots/client.py)."""
    skip = rng.random()
    return _think(skill, turn_s, skip, rng.gauss(0.0, 1.0))


@lru_cache(maxsize=8192)
def think_ms(seed: int, duel_id: str, row: int, rating: int, turn_ms: int) -> int | None:
    """How long a house bot of `rating` thinks on board row `row` of duel `duel_id`, in ms from
    the start of its turn; None when it lets the clock run out (R11): like a modelled person,
    when its thinking time reaches the end of the turn.

    Drawn from (seed, duel, row) alone: cheap (no word list), so `next_deadline` can ask on
    every poll; cached because it does."""
    skill = house_skill(rating)
    _, u1, u2 = seeds.uniforms(seed, duel_id, row, "think")
    t = skill.think_median * turn_ms * math.exp(skill.think_sigma * seeds.normal(u1, u2))
    if t >= turn_ms:
        return None
    return int(max(HOUSE_PACE * t, THINK_MIN * turn_ms))


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
            if mark == CORRECT:
                within &= lex.at[i].get(tile, 0)
    return within


def _without(lex: Lexicon, bits: Bits, words: Collection[Word]) -> Bits:
    for w in words:
        j = lex.bit.get(tuple(w))
        if j is not None:
            bits &= ~(1 << j)
    return bits


def _holds(lex: Lexicon, bits: Bits, word: Word) -> bool:
    j = lex.bit.get(word)
    return j is not None and bool(bits >> j & 1)


def _any(lex: Lexicon, bits: Bits, rng: random.Random) -> Word:
    return lex.universe[nth(bits, rng.randrange(bits.bit_count()))]


def _probe(
    lex: Lexicon,
    skill: Skill,
    rows: Sequence[Row],
    believed: Bits,
    pool: Bits,
    played: Collection[Word],
    rng: random.Random,
) -> Word | None:
    """A word that cannot be the secret (as the bot believes), chosen to tell it more: the
    hard style's best split of `pool` among a sample of accepted words; the others' a word that
    fits the green tiles, or else any accepted word."""
    if not skill.informed:
        loose = _without(lex, _greens(lex, believed, rows) & ~pool & lex.offered, played)
        if loose:
            return _any(lex, loose, rng)
    tries = min(lex.accepted_count, 2 * skill.compare if skill.informed else 8)
    options = [
        w
        for w in (lex.accepted_word(i) for i in rng.sample(range(lex.accepted_count), tries))
        if w not in played and not _holds(lex, pool, w) and lex.offers(w)
    ]
    if not options:
        return None
    if skill.informed:
        return min(options, key=lambda o: expected_left(lex, pool, o))
    return options[0]


def pick(
    lex: Lexicon,
    skill: Skill,
    rows: Sequence[Row],
    believed: Bits,
    rng: random.Random,
    exclude: Collection[Word] = (),
    aim: float | None = None,
) -> Word:
    """The word a bot of `skill` plays after the guessed `rows` of its board, believing the
    words of `believed` possible (`vocabulary`). `exclude`: words it must not play (already
    refused by the server, R13). `aim`: a house bot's chance to aim for the secret (see the
    module docstring); None plays every turn at the skill's full strength. Never a word the
    lexicon withholds (`Lexicon.offers`): a withheld secret is one a bot cannot find itself."""
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
    pool_bits = _without(lex, left, played)  # what it believes possible …
    playable = pool_bits & lex.offered  # … and may play (never a withheld word: Lexicon.offers)
    if aim is not None and pool_bits and rng.random() >= min(1.0, aim * pool_bits.bit_count()):
        probe = _probe(lex, skill, rows, believed, pool_bits, played, rng)
        if probe is not None:
            return probe
    if rows and rng.random() < skill.slip_chance:
        loose = _without(lex, _greens(lex, believed, rows) & lex.offered, played)
        if loose:
            return _any(lex, loose, rng)
    if not playable:
        if pool_bits:  # every word it believes possible is withheld: learn what it can
            probe = _probe(lex, skill, rows, believed, pool_bits, played, rng)
            if probe is not None:
                return probe
        spare = _without(lex, everything & lex.offered, played)
        return _any(lex, spare, rng) if spare else rows[0][0]
    pool = members(playable)
    universe = lex.universe
    if len(pool) <= 2 or skill.compare <= 1:
        return universe[pool[0]] if skill.informed else universe[rng.choice(pool)]
    options = [universe[j] for j in rng.sample(pool, min(skill.compare, len(pool)))]
    if skill.informed:
        return min(options, key=lambda o: expected_left(lex, pool_bits, o))
    common = {t: (pool_bits & lex.has(t)).bit_count() for o in options for t in o}
    return max(options, key=lambda o: sum(common[t] for t in set(o)))


def house_word(
    seed: int,
    duel_id: str,
    row: int,
    rating: int,
    board: Sequence[BoardRow],
    lex: Lexicon,
    paced: bool = True,
    style: Skill | None = None,
) -> Word:
    """The word a house bot of `rating` plays on row `row` of duel `duel_id`, whose public board
    so far is `board` (D4; `row == len(board)`). Its vocabulary is the same on all its rows of
    the duel (drawn from the seed, the duel and its seat); its choice is drawn from the row.
    For the simulator's comparisons only: `paced=False` plays at full strength, `style` in
    another style than its rating's."""
    skill = house_skill(rating) if style is None else style
    believed = vocabulary(lex, skill, seeds.stream(seed, duel_id, row % 2, "vocabulary"))
    rows = [r for r in board if r is not None]
    rng = seeds.stream(seed, duel_id, row, "word")
    aim = house_aim(rating, len(rows)) if paced else None
    return pick(lex, skill, rows, believed, rng, aim=aim)
