"""D19: what one tournament says about how a player chooses their words, as sums and counts.

Per row the player played, from the coach's analysis of the ended duel (core.analysis) and the
duel's turn times:

- **Judged rows**: rows played on a board that already told something (not the duel's opening
  row: a person's habitual opener is as good as a solver's, like a chess opening book) with at
  least `JUDGED_FROM` candidates left before it. On each: was the played word as good as the best
  word the solver compared (`best`), and its skill score out of 100 (core.analysis: how close
  its expected number left came to the best's, on a log scale); a score of `NEAR` or more is a
  near-best word.
- **Rare words**: every word played that can never be a secret (accepted only, D12).
- **Answer times** of every row played after the opening: ln(seconds), against the row's
  difficulty, log2 of the candidates before it (the information still needed). A solver takes
  as long on a hard row as on an easy one; people do not.

A tournament's signals are a `Tally` with `tournaments == 1`; tallies add up field by field
(core.fairplay.record), so a player's value has a fixed size however many tournaments they play.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the stored record (core.fairplay.record) loads no solver
    from core.analysis import DuelAnalysis
    from core.duel import Duel
    from core.solver.lexicon import Lexicon

JUDGED_FROM = 10  # candidates before a row, at least, for it to be judged
NEAR = 95  # a skill score this high is a near-best word
SCALE = 100  # times and difficulties are kept as hundredths: integers add up exactly
MIN_SECONDS = 0.1  # a faster answer (typed ahead) counts as this


@dataclass(frozen=True, slots=True)
class RowFacts:
    """What the signals need of one row a player played (a skipped turn is no row)."""

    before: int  # candidates before the row
    opening: bool  # the board told nothing yet (every secret still possible)
    played_expected: float
    best_expected: float
    skill: int  # 0–100, core.analysis.skill_score
    rare: bool  # the word can never be a secret
    seconds: float  # from the start of the turn to the guess


@dataclass(frozen=True, slots=True)
class Tally:
    """Sums and counts over some tournaments (all integers). `t` is ln(seconds) and `x` the
    row's difficulty log2(candidates before), both in hundredths."""

    tournaments: int = 0
    rows: int = 0  # judged rows
    best: int = 0  # judged rows where the played word was the best compared
    near: int = 0  # judged rows with a skill score of `NEAR` or more (the best included)
    skill: int = 0  # Σ skill score over judged rows
    skill_sq: int = 0  # Σ skill score²
    guesses: int = 0  # every word played
    rare: int = 0  # words played that can never be a secret
    timed: int = 0  # rows played after the opening, with their answer time
    t: int = 0
    tt: int = 0
    x: int = 0
    xx: int = 0
    xt: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(self.values(), other.values(), strict=True)))

    def values(self) -> tuple[int, ...]:
        return tuple(getattr(self, f) for f in FIELDS)

    # Derived figures, None while there is nothing to derive them from.

    @property
    def best_rate(self) -> float | None:
        return self.best / self.rows if self.rows else None

    @property
    def near_rate(self) -> float | None:
        return self.near / self.rows if self.rows else None

    @property
    def mean_skill(self) -> float | None:
        """Mean skill over judged rows, 0–1."""
        return self.skill / (SCALE * self.rows) if self.rows else None

    @property
    def rare_rate(self) -> float | None:
        return self.rare / self.guesses if self.guesses else None

    @property
    def time_spread(self) -> float | None:
        """Standard deviation of ln(seconds) over timed rows."""
        if self.timed < 2:
            return None
        n = self.timed
        var = (self.tt - self.t * self.t / n) / (n - 1) / (SCALE * SCALE)
        return math.sqrt(max(0.0, var))

    @property
    def median_seconds(self) -> float | None:
        """exp of the mean ln(seconds): the typical answer time."""
        return math.exp(self.t / (SCALE * self.timed)) if self.timed else None

    @property
    def time_slope(self) -> float | None:
        """How much ln(seconds) grows per bit of difficulty (least squares), over timed rows."""
        n = self.timed
        sxx = self.xx - self.x * self.x / n if n else 0.0
        if n < 3 or sxx <= 0:
            return None
        return (self.xt - self.x * self.t / n) / sxx


FIELDS = tuple(f.name for f in fields(Tally))
EMPTY = Tally()


def tally(rows: Iterable[RowFacts]) -> Tally:
    """One tournament's signals from the rows a player played in it."""
    judged = best = near = skill = skill_sq = guesses = rare = timed = t = tt = x = xx = xt = 0
    for r in rows:
        guesses += 1
        rare += r.rare
        if r.opening:
            continue
        if r.before >= JUDGED_FROM:
            judged += 1
            best += r.played_expected <= r.best_expected
            near += r.skill >= NEAR
            skill += r.skill
            skill_sq += r.skill * r.skill
        ti = round(SCALE * math.log(max(r.seconds, MIN_SECONDS)))
        xi = round(SCALE * math.log2(r.before)) if r.before > 1 else 0
        timed += 1
        t += ti
        tt += ti * ti
        x += xi
        xx += xi * xi
        xt += xi * ti
    return Tally(1, judged, best, near, skill, skill_sq, guesses, rare, timed, t, tt, x, xx, xt)


def rows_of(player: str, duel: Duel, analysis: DuelAnalysis, lexicon: Lexicon) -> list[RowFacts]:
    """The rows `player` played in an ended `duel`, from its analysis (`core.analysis.analyse`)."""
    if analysis.duel_id != duel.id or len(analysis.rows) != len(duel.turns):
        raise ValueError("the analysis is not this duel's")
    secrets = len(lexicon.secrets)
    out = []
    started = duel.starts_at
    for turn, row in zip(duel.turns, analysis.rows, strict=True):
        took = turn.at - started
        started = turn.at
        if (
            turn.player != player
            or row.word is None
            or row.played_expected is None
            or row.best_expected is None
            or row.skill is None
        ):
            continue
        j = lexicon.bit.get(row.word)
        out.append(
            RowFacts(
                before=row.before,
                opening=row.before == secrets,
                played_expected=row.played_expected,
                best_expected=row.best_expected,
                skill=row.skill,
                rare=j is None or j >= secrets,
                seconds=took / 1000,
            )
        )
    return out


def of_player(
    player: str,
    duels: Iterable[Duel],
    analyses: Mapping[str, DuelAnalysis],
    lexicon_of: Callable[[int], Lexicon],
) -> Tally:
    """A player's signals for one tournament: every ended duel of theirs (`analyses` by duel id,
    `lexicon_of(length)` the language's words of that length)."""
    rows: list[RowFacts] = []
    for duel in duels:
        if player in duel.players and duel.ended_at is not None:
            rows += rows_of(player, duel, analyses[duel.id], lexicon_of(len(duel.secret)))
    return tally(rows)
