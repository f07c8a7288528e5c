"""D19: does a player's tally look like a solver's? A pure verdict with its reasons.

Two reasons, each against what simulated people do (the reference figures come from
`wordle-tournament fairplay simulate`; docs/decisions.md, D19):

- **choices**: each judged row is *best* (the played word was the best the solver compared),
  *near* (not the best, but a skill score of 95 or more, core.fairplay.signals) or *other*.
  People are taken to play the best word on `best_ref` of their judged rows and a near one on
  `near_ref` (twice what the strongest simulated people do); a solver on `solver_best` and
  `solver_near`. The evidence is the log-likelihood ratio of the
  player's counts, solver against person, in powers of ten:

      evidence = (b·ln(sb/pb) + m·ln(sm/pm) + o·ln(so/po)) / ln 10

  for b best, m near and o other rows (p: people's shares, s: the solver's). It is a sum over
  rows (Wald's sequential test): for a person who plays like the reference, the likelihood
  ratio is a martingale of mean 1, so the chance that it *ever* reaches 10^E, however many
  tournaments they play, is at most 10^-E (Ville's inequality). `evidence` is chosen from that
  bound and checked by simulation.
- **mechanical**: answer times that hardly vary (the spread of ln(seconds) under
  `mechanical_spread`, over `min_timed` rows or more) together with near-best words (a mean
  skill of `mechanical_skill` or more). People's times spread about 0.4 (core.simulation).

Nothing is said of a window before `min_rows` judged rows. Each statistic is divided by its
threshold, so a reason holds at a ratio of 1 or more, and the
verdict's score is the largest ratio.

Answer times against difficulty (`Tally.time_slope`) and rare words (`Tally.rare_rate`) are
shown to operators but flag nobody: the simulated people cannot calibrate them (their thinking
time does not depend on the row, and the bots that stand in for their choices play rare words
more often than a solver does). docs/decisions.md says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.fairplay.signals import NEAR, Tally


@dataclass(frozen=True, slots=True)
class Thresholds:
    min_rows: int = 5  # judged rows in a window before anything is said of it
    # people's shares of best words on judged rows, and of near-best words that are not the
    # best (twice the strongest stand-in's: core.fairplay.simulation.MARGIN)
    best_ref: float = 0.046
    near_ref: float = 0.142
    solver_best: float = 0.9  # a solver client's
    solver_near: float = 0.088
    evidence: float = 5.0  # log10 of the likelihood ratio that flags
    min_timed: int = 20
    mechanical_spread: float = 0.15
    mechanical_skill: float = 0.8

    @property
    def weights(self) -> tuple[float, float, float]:
        """Natural-log weights of a best, a near and an other row."""
        other_ref = 1.0 - self.best_ref - self.near_ref
        solver_other = 1.0 - self.solver_best - self.solver_near
        return (
            math.log(self.solver_best / self.best_ref),
            math.log(self.solver_near / self.near_ref),
            math.log(solver_other / other_ref),
        )


DEFAULT = Thresholds()


@dataclass(frozen=True, slots=True)
class Reason:
    code: str  # "choices", "mechanical" (and "farm", core.fairplay.farming)
    ratio: float  # the statistic over its threshold: the reason holds at 1 or more
    detail: str  # for operators: the figures behind it


@dataclass(frozen=True, slots=True)
class Verdict:
    flagged: bool
    reasons: tuple[Reason, ...]  # every reason that holds, strongest first
    score: float  # the largest ratio of any reason (0 when nothing can be said yet)


def choices(t: Tally, th: Thresholds = DEFAULT) -> float:
    """The log10 likelihood ratio of the tally's judged rows, solver against person."""
    wb, wn, wo = th.weights
    near_only = t.near - t.best
    return (wb * t.best + wn * near_only + wo * (t.rows - t.near)) / math.log(10)


def mechanical(t: Tally, th: Thresholds = DEFAULT) -> float:
    """The threshold over the spread of answer times, when the words are near-best too (a
    ratio of 1 or more holds); 0 when it cannot be said."""
    spread, mean = t.time_spread, t.mean_skill
    if spread is None or mean is None or t.timed < th.min_timed or t.rows < th.min_rows:
        return 0.0
    if mean < th.mechanical_skill:
        return 0.0
    return th.mechanical_spread / max(spread, 1e-6)


def flag(t: Tally, th: Thresholds = DEFAULT) -> Verdict:
    """The verdict on a tally (core.fairplay.record judges one over every tournament and one
    over the recent ones)."""
    found = []
    c = choices(t, th)
    if t.rows >= th.min_rows:
        found.append(
            Reason(
                "choices",
                max(0.0, c) / th.evidence,
                f"the best word on {t.best} and a near-best one (skill {NEAR}+) on"
                f" {t.near - t.best} more of {t.rows} judged rows (people:"
                f" {th.best_ref:.1%} and {th.near_ref:.1%}); mean skill"
                f" {100 * (t.mean_skill or 0):.0f}; 10^{c:.1f} times likelier from a solver",
            )
        )
    m = mechanical(t, th)
    if m:
        found.append(
            Reason(
                "mechanical",
                m,
                f"answer times spread {t.time_spread or 0:.2f} in ln(seconds) over {t.timed} rows"
                f" (typical {t.median_seconds or 0:.1f} s), mean skill"
                f" {100 * (t.mean_skill or 0):.0f}",
            )
        )
    found.sort(key=lambda r: -r.ratio)
    holding = tuple(r for r in found if r.ratio >= 1.0)
    return Verdict(bool(holding), holding, found[0].ratio if found else 0.0)
