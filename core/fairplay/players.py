"""D19's simulated players: people, and clients that use a solver, playing duels with real words.

People think as the tournament simulator's people do (core.people: a log-normal thinking
time, median 15 s and shape 0.4; a turn that reaches 30 s is skipped, R11) and choose their
words as the house bots of their skill do (core.bots: easy and medium are the stand-ins for
people). Solver clients play the solver's best word (core.solver.board.options, with a seed of
their own: they do not see the coach's sample), on every row or on a share of them, and answer
after a delay of their own.

`play_duel` plays one duel and returns, for each side, the facts of every row it played
(core.fairplay.signals.RowFacts), judged as the coach would judge them: the coach's options are
drawn from a generator of their own, as core.analysis draws them from the tournament's seed; a
solver client searches `SOLVER_SEARCH` samples as large as the coach's and plays the best.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from core import bots
from core.analysis import skill_score
from core.duel import Word
from core.fairplay.signals import JUDGED_FROM, RowFacts
from core.feedback import is_solved, score
from core.people import PlayerModel
from core.solver import board as sb
from core.solver.board import BoardRow
from core.solver.lexicon import Lexicon
from core.solver.split import consistent
from core.timing import MAX_ROWS

TURN_S = 30.0
# A solver client compares this many times the coach's sample (core.solver.board.options): a
# solver in another tab searches at least as widely as the coach, most search every word.
SOLVER_SEARCH = 3

_PEOPLE_TIME = PlayerModel()  # the tournament simulator's thinking model


@dataclass(frozen=True, slots=True)
class Model:
    """How a simulated player chooses and how long it takes.

    `skill` chooses as that house bot skill does; `best_share` is the chance, per row, to play
    the solver's best word instead (1: always). Thinking time is log-normal with median
    `think_median_s` and shape `think_sigma`; at `TURN_S` the turn is skipped (R11)."""

    name: str
    skill: bots.Skill
    best_share: float = 0.0
    think_median_s: float = _PEOPLE_TIME.think_median_s
    think_sigma: float = _PEOPLE_TIME.think_sigma
    person: bool = True  # a stand-in for a person (a false positive if flagged)


EASY = Model("easy person", bots.EASY)
MEDIUM = Model("medium person", bots.MEDIUM)
PEOPLE = (EASY, MEDIUM)
# Not a stand-in the thresholds are chosen for: a person stronger than both, who compares six
# of the words still possible by how well they split the rest (the hard bot compares 40), to
# show how the verdict treats people better than the stand-ins.
STRONG = Model("strong person", bots.Skill("strong", 0.4, 0.4, 0.02, 0.05, 6, True, 500))
# A client that always plays the solver's best word, a second or three after the board changes.
SOLVER = Model("solver", bots.HARD, 1.0, 3.0, 0.25, person=False)
# One that hides a little: the best word 70 % of the time, a medium person's word otherwise,
# after a person's delays.
HIDER = Model("solver 70 %, human delays", bots.MEDIUM, 0.7, person=False)
# One that hides its choices better but not its timing: the best word 40 % of the time, and
# every answer two seconds or so after the board changes.
FAST_HIDER = Model("solver 40 %, instant answers", bots.MEDIUM, 0.4, 2.0, 0.1, person=False)
HARD = Model(
    "hard bot", bots.HARD, 0.0, bots.HARD.think_median * TURN_S, bots.HARD.think_sigma, False
)
CHEATS = (SOLVER, HIDER, FAST_HIDER, HARD)


def think(model: Model, rng: random.Random) -> float:
    """Seconds before the player plays; `TURN_S` or more skips the turn."""
    return model.think_median_s * math.exp(model.think_sigma * rng.gauss(0.0, 1.0))


@lru_cache(maxsize=64)
def _opener(lex: Lexicon) -> Word:
    # A solver client opens with one fixed word, the best of a large seeded sample.
    return sb.options(lex, lex.all_secrets, random.Random(0))[0].word


def choose(
    model: Model,
    lex: Lexicon,
    rows: list[tuple[Word, str]],
    left: int,
    believed: int,
    rng: random.Random,
) -> Word:
    """The word `model` plays after `rows`, with `left` the candidates the board allows."""
    if model.best_share and rng.random() < model.best_share:
        if not rows:
            return _opener(lex)
        found = (sb.options(lex, left, rng)[0] for _ in range(SOLVER_SEARCH))
        return min(found, key=lambda o: (o.expected, o.word)).word
    return bots.pick(lex, model.skill, rows, believed, rng)


@dataclass(frozen=True, slots=True)
class Played:
    facts: tuple[list[RowFacts], list[RowFacts]]  # the rows each measured side played
    winner: int | None  # 0 or 1, the side that found the word; None: a draw (R14)


def play_duel(
    lex: Lexicon,
    models: tuple[Model, Model],
    rng: random.Random,
    coach: random.Random,
    measured: tuple[bool, bool] = (True, True),
) -> Played:
    """Play one duel on a secret drawn from `lex`, each side choosing with its model; the facts
    of the rows each `measured` side played (the coach's options drawn from `coach`)."""
    secret = rng.choice(lex.secrets)
    believed = tuple(bots.vocabulary(lex, m.skill, rng) for m in models)
    everything = lex.all_secrets
    secrets = len(lex.secrets)
    left = everything
    board: list[BoardRow] = []
    facts: tuple[list[RowFacts], list[RowFacts]] = ([], [])
    for r in range(MAX_ROWS):
        side = r % 2
        model = models[side]
        seconds = think(model, rng)
        if seconds >= TURN_S:
            board.append(None)
            continue
        rows = [x for x in board if x is not None]
        word = choose(model, lex, rows, left, believed[side], rng)
        marks = score(secret, word)
        if measured[side]:
            facts[side].append(_judge(lex, left, word, seconds, everything, secrets, coach))
        board.append((word, marks))
        if is_solved(marks):
            return Played(facts, side)
        left = consistent(lex, left, word, marks)
    return Played(facts, None)


def _judge(
    lex: Lexicon,
    left: int,
    word: Word,
    seconds: float,
    everything: int,
    secrets: int,
    coach: random.Random,
) -> RowFacts:
    """A row as core.analysis judges it; the options are compared only where the signals read
    them (judged rows), the rest cost nothing."""
    before = left.bit_count()
    opening = left == everything
    played = best = 0.0
    skill = 0
    if not opening and before >= JUDGED_FROM:
        compared = sb.options(lex, left, coach, (word,))
        played = sb.expected_of(lex, left, compared, word)
        best = compared[0].expected
        skill = skill_score(before, played, best)
    j = lex.bit.get(word)
    return RowFacts(before, opening, played, best, skill, j is None or j >= secrets, seconds)
