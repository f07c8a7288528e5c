"""The scheduled sweep: tournaments advance even when nobody polls (D10)."""

from __future__ import annotations

from dataclasses import dataclass

from api.service.context import Context
from api.service.tournaments import Tournaments


@dataclass(frozen=True, slots=True)
class SweepReport:
    due: int
    advanced: int


def sweep(ctx: Context, tournaments: Tournaments, limit: int = 500) -> SweepReport:
    """Advance every tournament whose next deadline has passed, through the deadline index.

    Idempotent: a tournament someone else advanced first simply has nothing left to do.
    """
    now = ctx.now()
    due = ctx.repo.due_tournaments(now, limit)
    advanced = 0
    for tournament_id in due:
        advanced += tournaments.advance(tournament_id, now).changed
    return SweepReport(len(due), advanced)
