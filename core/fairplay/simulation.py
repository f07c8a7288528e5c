"""D19: choosing the fair-play thresholds by simulation (`wordle-tournament fairplay simulate`).

How it runs (docs/benchmarks.md, "Fair play"):

1. **Duels.** Simulated players (core.fairplay.players) play duels on real words: a language
   and a length drawn at random per duel from the lexicons the caller passes. People play
   people (an easy or a medium person, at random); every other model plays a person. Each duel
   gives the measured side's signals (core.fairplay.signals), judged as the coach judges them,
   and who won it.
2. **Tournaments.** How many duels a player plays in a tournament is drawn from whole
   tournaments of the tournament simulator (core.simulation, R3), in which that player wins,
   draws and loses their duels as often as their model did in step 1 (a solver that wins plays
   more duels: more evidence per tournament) and the others are evenly matched.
3. **Careers.** A simulated player's career is a number of tournaments, each the sum of that
   many duels drawn from the pool of their model (a bootstrap: every duel of the pool is a fresh
   secret, opponent and set of choices, so duels are independent, and drawing them from a pool
   of thousands gives the sums that playing them anew would, at a thousandth of the cost).
   After every tournament the record is judged as the service judges it (core.fairplay.record).

A false positive is a simulated person flagged after any tournament of their career.

The thresholds: the verdict's reference shares are the pools' (`references`: the solver's, and
`MARGIN` times the strongest stand-in's for people); the evidence that flags is chosen from
Ville's bound (`evidence_for`): a person who plays like the reference reaches it with a chance
of at most 10^-evidence per window judged, however long their career.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from core import duel as dl
from core import tournament as tm
from core.fairplay import record as fr
from core.fairplay import verdict
from core.fairplay.players import PEOPLE, Model, play_duel
from core.fairplay.signals import FIELDS, RowFacts, Tally, tally
from core.people import PlayerModel
from core.simulation import SIM_WORDS
from core.simulation import play_duel as play_simulated_duel
from core.solver.lexicon import Lexicon
from core.timing import MAX_ROWS, Timing

NEVER_MS = 10**12
TARGET = 1 / 1000  # simulated people flagged over 20 tournaments: fewer than this (D19)
SAFETY = 25  # the threshold's bound is this many times under the target
# The people's shares the verdict assumes are this many times the strongest stand-in's: Ville's
# bound then holds for people twice as good as the stand-ins at finding the best word (the
# bots are not people; `fairplay simulate` compares 1 and 2 on a person stronger than both).
MARGIN = 2.0
LEAST = 0.001  # the smallest share `references` gives
CAREER = 20  # tournaments of a simulated person's career
WITHIN = 5  # tournaments within which a solver client must be flagged


@dataclass(frozen=True, slots=True)
class Pool:
    """Many simulated duels of one model: the measured side's signals (`tournaments == 0`)
    and their outcomes."""

    model: Model
    duels: tuple[Tally, ...]
    won: int
    drawn: int

    @property
    def total(self) -> Tally:
        out = Tally()
        for d in self.duels:
            out = out + d
        return out

    @property
    def outcome(self) -> tuple[float, float]:
        """The shares of duels won and drawn."""
        n = max(1, len(self.duels))
        return self.won / n, self.drawn / n


def _duel_tally(rows: Sequence[RowFacts]) -> Tally:
    return Tally(0, *tally(rows).values()[1:])


def people_pools(
    lexicons: Sequence[Lexicon],
    duels: int,
    rng: random.Random,
    coach: random.Random,
    people: Sequence[Model] = PEOPLE,
) -> dict[str, Pool]:
    """`duels` duels between people (both sides measured, each side one of `people`)."""
    found: dict[str, list[Tally]] = {m.name: [] for m in people}
    outcomes = {m.name: [0, 0] for m in people}
    for _ in range(duels):
        lex = rng.choice(lexicons)
        sides = (rng.choice(people), rng.choice(people))
        played = play_duel(lex, sides, rng, coach)
        for i, (model, rows) in enumerate(zip(sides, played.facts, strict=True)):
            found[model.name].append(_duel_tally(rows))
            outcomes[model.name][0] += played.winner == i
            outcomes[model.name][1] += played.winner is None
    return {m.name: Pool(m, tuple(found[m.name]), *outcomes[m.name]) for m in people}


def pool(
    model: Model,
    lexicons: Sequence[Lexicon],
    duels: int,
    rng: random.Random,
    coach: random.Random,
) -> Pool:
    """`duels` duels of `model` against people (only `model`'s side measured), first in half."""
    found = []
    won = drawn = 0
    for i in range(duels):
        lex = rng.choice(lexicons)
        person = rng.choice(PEOPLE)
        side = i % 2
        sides = (model, person) if side == 0 else (person, model)
        played = play_duel(lex, sides, rng, coach, (side == 0, side == 1))
        found.append(_duel_tally(played.facts[side]))
        won += played.winner == side
        drawn += played.winner is None
    return Pool(model, tuple(found), won, drawn)


# ---------------------------------------------------------------------------- tournaments


def _decided(duel: dl.Duel, winner: str | None, rng: random.Random) -> dl.Duel:
    """`duel` played to a chosen end: `winner` finds the word on one of their turns (None: a
    draw, R14). Only the number of duels counts here, so the other guesses are any word."""
    secret = duel.secret
    miss = ("v" if secret[0] != "v" else "w", *secret[1:])
    finds_at = None if winner is None else duel.players.index(winner) + 2 * rng.randrange(5)
    now = duel.starts_at
    for row in range(MAX_ROWS):
        now += 1000
        word = secret if row == finds_at else miss
        duel = dl.play(duel, duel.players[row % 2], word, now)
        if duel.ended_at is not None:
            break
    return duel


def duels_per_tournament(
    rng: random.Random, tournaments: int, won: float = 0.5, drawn: float = 0.0
) -> list[int]:
    """How many duels one player plays in each of `tournaments` simulated tournaments, winning
    `won` and drawing `drawn` of their duels (the others evenly matched, core.simulation)."""
    model = PlayerModel()
    timing = Timing(reconnect_ms=NEVER_MS)
    counts: list[int] = []
    me = "p0"
    for _ in range(tournaments):
        seats = [tm.Seat(f"p{i}", f"Player {i}", 1000) for i in range(8)]
        t, _ = tm.start("sim", "sim", seats, 0, rng, SIM_WORDS, timing)
        while t.finished_at is None:
            duels = []
            for d in t.rounds[-1].duels:
                if me not in d.players:
                    duels.append(play_simulated_duel(d, rng, model))
                    continue
                u = rng.random()
                end = me if u < won else None if u < won + drawn else d.opponent(me)
                duels.append(_decided(d, end, rng))
            t, _ = tm.record_duels(t, duels, SIM_WORDS)
        counts.append(sum(1 for r in t.rounds if r.duel_of(me) is not None))
    return counts


# ---------------------------------------------------------------------------- careers


@dataclass(frozen=True, slots=True)
class Career:
    flagged_after: int | None  # the tournament after which the player was flagged (1-based)
    peak: float  # the largest choices evidence (log10) seen on a window with enough rows
    reasons: tuple[str, ...]  # at the flag


@dataclass(frozen=True, slots=True)
class Stage:
    """Part of a career: `tournaments` tournaments played as `pool`'s model, with duel counts
    drawn from `duel_counts`."""

    pool: Pool
    duel_counts: Sequence[int]
    tournaments: int


def career(
    pool: Pool,
    duel_counts: Sequence[int],
    tournaments: int,
    rng: random.Random,
    th: verdict.Thresholds = verdict.DEFAULT,
    stop: bool = True,
    before: Stage | None = None,
) -> Career:
    """One simulated player's career, judged after every tournament. `stop`: end at the flag
    (for the tournaments-to-flag figure), else play on to the end (for the peak). `before`: a
    first stage played as another model (a person who turns to a solver later); tournaments
    are then counted from its end, and a flag during it counts as after tournament 0."""
    record = fr.EMPTY_RECORD
    pick = rng.choice
    width = len(FIELDS)
    peak = -math.inf
    flagged_after: int | None = None
    reasons: tuple[str, ...] = ()
    plan = [(Stage(pool, duel_counts, tournaments), 1)]
    if before is not None:
        plan.insert(0, (before, 1 - before.tournaments))
    for stage, first in plan:
        for n in range(first, first + stage.tournaments):
            sums = [1] + [0] * (width - 1)
            for _ in range(pick(stage.duel_counts)):
                for i, value in enumerate(pick(stage.pool.duels).values()):
                    sums[i] += value
            record = fr.add(record, Tally(*sums))
            for _, window in fr.windows(record):
                if window.rows >= th.min_rows:
                    peak = max(peak, verdict.choices(window, th))
            if flagged_after is None:
                v = fr.flag(record, th)
                if v.flagged:
                    flagged_after = max(0, n)
                    reasons = tuple(r.code for r in v.reasons)
                    if stop:
                        return Career(flagged_after, peak, reasons)
    return Career(flagged_after, peak, reasons)


def careers(
    pool: Pool,
    players: int,
    duel_counts: Sequence[int],
    tournaments: int,
    rng: random.Random,
    th: verdict.Thresholds = verdict.DEFAULT,
    stop: bool = True,
    before: Stage | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[Career]:
    out = []
    for i in range(players):
        out.append(career(pool, duel_counts, tournaments, rng, th, stop, before))
        if progress is not None and i % 200 == 0:
            progress(i)
    return out


# ---------------------------------------------------------------------------- thresholds


def rates(p: Pool) -> tuple[float, float]:
    """A pool's shares of best, and of near-but-not-best, words on judged rows."""
    t = p.total
    return (t.best / t.rows, (t.near - t.best) / t.rows) if t.rows else (0.0, 0.0)


def references(
    people: Sequence[Pool],
    solver: Pool,
    th: verdict.Thresholds = verdict.DEFAULT,
    margin: float = MARGIN,
) -> verdict.Thresholds:
    """`th` with the shares the verdict compares: `margin` times the people's highest (over the
    pools of `people`, rounded up to a thousandth) and the solver's (rounded down). None of the
    three shares (best, near, other) of either is below a thousandth, so the verdict's weights
    stay finite even on a small run that saw none of a kind."""
    solver_best, solver_near = rates(solver)
    near = max(LEAST, math.floor(1000 * solver_near) / 1000)
    return replace(
        th,
        best_ref=max(LEAST, math.ceil(1000 * margin * max(rates(p)[0] for p in people)) / 1000),
        near_ref=max(LEAST, math.ceil(1000 * margin * max(rates(p)[1] for p in people)) / 1000),
        solver_best=max(LEAST, min(math.floor(1000 * solver_best) / 1000, 1 - LEAST - near)),
        solver_near=near,
    )


def evidence_for(
    target: float = TARGET, safety: float = SAFETY, career: int = CAREER, block: int = fr.BLOCK
) -> float:
    """The log10 likelihood ratio that flags. By Ville's inequality, a person who plays like the
    reference reaches it on a window that starts at a given tournament with a chance of at most
    10^-evidence, however long the window runs; windows start at every block (core.fairplay.
    record.windows), so a career of `career` tournaments has ceil(career / block) starts, and
    the bound for all of them together is `safety` times under `target`. Rounded up to a
    tenth."""
    starts = -(-career // block)
    return math.ceil(10 * math.log10(starts * safety / target) - 1e-9) / 10
