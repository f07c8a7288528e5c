"""The scheduled sweep: tournaments advance even when nobody polls (D10).

It reads the sparse deadline index, so its cost grows with the tournaments that are due, not
with those that are live; finished tournaments, lobbies and groups are not in it at all.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from api.service.context import Context
from api.service.errors import ServiceError
from api.service.tournaments import Tournaments
from api.storage.records import TournamentRecord

log = logging.getLogger("wordle_tournament")


@dataclass(frozen=True, slots=True)
class SweepReport:
    due: int  # tournaments whose deadline had passed
    advanced: int  # of those, the ones this sweep saved a newer state for
    failed: int  # left for the next sweep (storage fault, too much contention)


def sweep(ctx: Context, tournaments: Tournaments, limit: int = 500) -> SweepReport:
    """Advance every tournament whose next deadline has passed.

    Idempotent and safe beside API requests: each save is conditional on the version read, and a
    conflict means someone else advanced it first, so it re-reads and finds less (or nothing) to
    do. A failure leaves that tournament as it was, for the next sweep.
    """
    now = ctx.now()
    due = ctx.repo.due_tournaments(now, limit)
    advanced = failed = 0
    for tournament_id in due:
        try:
            snapshot = tournaments.advance(tournament_id, now)
            advanced += snapshot.changed
            if not snapshot.changed:
                _reschedule(ctx, snapshot.record, snapshot.tournament.next_deadline())
        except ServiceError as exc:
            failed += 1
            log.warning(
                "sweep could not advance a tournament",
                extra={"fields": {"tournament_id": tournament_id, "error": exc.code}},
            )
    return SweepReport(len(due), advanced, failed)


def _reschedule(ctx: Context, record: TournamentRecord, due: int | None) -> None:
    """Nothing was due after all (a poll moved a last contact later): move it in the index,
    so the next sweep does not read it again. Only the sweep reads the index, so only it
    corrects it; polls never write for this."""
    if due != record.due:
        ctx.repo.reschedule(record.id, record.version, due)
