"""D19: the coach's analysis of an ended duel, row by row.

For every row of the shared board (D4): the word and who played it, how many words could still
be the secret before and after it, the best word the solver found and its expected number left,
the played word's expected number left, and two scores out of 100.

Counts. `before` is the number of secrets the board still allowed before the row; `after` the
number still to be found after it: the candidates left, or 0 once the row found the secret. The
*expected number left* of a word w on candidates X (each equally likely, core.solver.split) is
E(w) = (Σ_g |g|² − [w ∈ X]) / |X| over the groups g of X that w's feedback tells apart: a group
of n leaves n, and the secret itself, when played, leaves nothing.

Options. The best word is the one with the smallest E among the words compared: every candidate
while there are at most 100 (else 100 of them), 100 of every accepted word (none once at most 3
candidates are left, where a candidate is always best), and the played word; drawn from the
tournament's seed and the duel, so the same duel always gets the same analysis (cacheable for
good: an ended duel never changes). Only words the service may offer are compared
(`Lexicon.offers`: never a blocked word of the language, D19), so the best word, and the skill
measured against it, is the best *offerable* word; `before` and `after` still count every
candidate, blocked or not, and a blocked word a player played is scored like any other.

Skill, how good the choice was against the best available, in expectation, on a log scale (each
halving of the words left counts the same, and +1 keeps "none left" finite), with n = `before`:

    skill = 100 × ln((1 + n) / (1 + E(played))) / ln((1 + n) / (1 + E(best)))

100 is the best word compared; 0 a word that tells nothing (E = n). Clamped to 0–100 (a played
blocked word may beat every word compared).

Luck, how much better or worse the actual outcome a (= `after`) was than the played word's
expectation, on the same scale: 50 when a equals E(played); 100 at the best outcome the word
could have had (the fewest words left: 0 when it could have been the secret); 0 at the worst (its
largest group), linear in ln(1 + a) in between:

    luck = 50 + 50 × (ln(1+E) − ln(1+a)) / (ln(1+E) − ln(1+lo))   when a < E
    luck = 50 − 50 × (ln(1+a) − ln(1+E)) / (ln(1+hi) − ln(1+E))   when a > E

and 50 when the word could have only one outcome. A skipped turn (R11) tells nothing and has no
scores. The share of information a row gained is log2(before / candidates after) over log2(before)
(`info_share`, none once only one word was left).

Only ever for an ended duel (`analyse` refuses a live one): the counts of a live board, or the best
word, would be a hint, and the actual outcome needs the end of the duel to be known for good.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from core import errors, seeds
from core.duel import Duel, Word
from core.solver.board import Step, board_of, steps
from core.solver.lexicon import Lexicon
from core.solver.split import split

VERSION = 2  # of the method: a cached analysis is kept only while it is the same


@dataclass(frozen=True, slots=True)
class RowAnalysis:
    row: int
    player: str
    word: Word | None  # None: a skipped turn
    marks: str | None
    before: int
    after: int
    best: Word | None
    best_expected: float | None
    played_expected: float | None
    skill: int | None
    luck: int | None
    info_share: float | None


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    player: str
    guesses: int
    skill: int | None  # the mean of the player's rows
    luck: int | None


@dataclass(frozen=True, slots=True)
class DuelAnalysis:
    duel_id: str
    players: tuple[str, str]
    secret: Word
    winner: str | None
    rows: tuple[RowAnalysis, ...]
    summary: tuple[PlayerSummary, ...]

    def to_json(self) -> dict[str, Any]:
        """The analysis as JSON-ready data, as a route serves it."""
        return {
            "version": VERSION,
            "duel": self.duel_id,
            "players": list(self.players),
            "secret": list(self.secret),
            "winner": self.winner,
            "rows": [
                {
                    "row": r.row,
                    "by": r.player,
                    "skipped": r.word is None,
                    "tiles": None if r.word is None else list(r.word),
                    "marks": r.marks,
                    "before": r.before,
                    "after": r.after,
                    "best": None if r.best is None else list(r.best),
                    "best_expected": _round(r.best_expected),
                    "played_expected": _round(r.played_expected),
                    "skill": r.skill,
                    "luck": r.luck,
                    "info_share": _round(r.info_share, 3),
                }
                for r in self.rows
            ],
            "players_summary": [
                {"player": s.player, "guesses": s.guesses, "skill": s.skill, "luck": s.luck}
                for s in self.summary
            ],
        }


def _round(x: float | None, digits: int = 2) -> float | None:
    return None if x is None else round(x, digits)


def skill_score(before: int, played: float, best: float) -> int:
    """See the module docstring."""
    top = math.log((1 + before) / (1 + best))
    if top <= 0:
        return 100 if played <= best else 0
    share = math.log((1 + before) / (1 + played)) / top
    return round(100 * min(1.0, max(0.0, share)))


def luck_score(actual: int, expected: float, lowest: int, highest: int) -> int:
    """See the module docstring: `lowest` and `highest` are the fewest and the most words the
    played word could have left."""
    x, e = math.log1p(actual), math.log1p(expected)
    if x < e:
        span = e - math.log1p(lowest)
        return round(50 + 50 * min(1.0, (e - x) / span)) if span > 0 else 50
    if x > e:
        span = math.log1p(highest) - e
        return round(50 - 50 * min(1.0, (x - e) / span)) if span > 0 else 50
    return 50


def _row(lex: Lexicon, duel: Duel, step: Step) -> RowAnalysis:
    player = duel.players[step.row % 2]
    best = step.best
    if step.word is None or best is None or step.played is None:
        return RowAnalysis(
            row=step.row,
            player=player,
            word=step.word,
            marks=step.marks,
            before=step.count_before,
            after=step.left,
            best=None,
            best_expected=None,
            played_expected=None,
            skill=None,
            luck=None,
            info_share=None,
        )
    outcomes = [g.bit_count() for g in split(lex, step.before, step.word)]
    mine = lex.bit.get(step.word)
    could_win = mine is not None and bool(step.before >> mine & 1)
    lowest = 0 if could_win else min(outcomes)
    return RowAnalysis(
        row=step.row,
        player=player,
        word=step.word,
        marks=step.marks,
        before=step.count_before,
        after=step.left,
        best=best.word,
        best_expected=best.expected,
        played_expected=step.played,
        skill=skill_score(step.count_before, step.played, best.expected),
        luck=luck_score(step.left, step.played, lowest, max(outcomes)),
        info_share=step.info_share,
    )


def analyse(duel: Duel, lexicon: Lexicon, seed: int) -> DuelAnalysis:
    """D19: the analysis of an ended duel. `lexicon`: its language's words of the secret's length;
    `seed`: the tournament's stored seed. Raises `errors.DuelInPlay` for a duel still running."""
    if duel.ended_at is None:
        raise errors.DuelInPlay(duel.id)
    if lexicon.length != len(duel.secret):
        raise ValueError("the lexicon is not of the secret's length")
    rows = tuple(
        _row(lexicon, duel, s)
        for s in steps(lexicon, board_of(duel), seeds.stream(seed, duel.id, "analysis"))
    )
    summary = []
    for p in duel.players:
        mine = [r for r in rows if r.player == p and r.word is not None]
        skills = [r.skill for r in mine if r.skill is not None]
        lucks = [r.luck for r in mine if r.luck is not None]
        summary.append(
            PlayerSummary(
                p,
                len(mine),
                round(sum(skills) / len(skills)) if skills else None,
                round(sum(lucks) / len(lucks)) if lucks else None,
            )
        )
    return DuelAnalysis(duel.id, duel.players, duel.secret, duel.winner, rows, tuple(summary))
