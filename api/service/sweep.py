"""The scheduled sweep: tournaments advance even when nobody polls (D10), house bots play their
moves (D18), open lobbies meet (D15), free their idle seats (D16) and are filled with house bots
(D18) even when nobody queues.

It reads the sparse deadline index, so its cost grows with the tournaments and lobbies that are
due, not with those that are live or open; finished tournaments, started lobbies and groups are
not in it at all.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from api.service.context import Context
from api.service.errors import ServiceError
from api.service.lobbies import SETTLE_MS, Lobbies
from api.service.tournaments import Tournaments
from api.storage.records import TournamentRecord
from api.storage.repository import StorageError

log = logging.getLogger("wordle_tournament")


@dataclass(frozen=True, slots=True)
class SweepReport:
    due: int  # tournaments whose deadline had passed
    advanced: int  # of those, the ones this sweep saved a newer state for
    failed: int  # left for the next sweep (storage fault, too much contention)
    lobbies: int = 0  # open lobbies that were due (changed a moment ago, or with an idle seat)
    moves: int = 0  # D15: players moved together
    freed: int = 0  # D16: idle seats given up
    filled: int = 0  # D18: lobbies filled with house bots (their tournaments started)


def sweep(
    ctx: Context, tournaments: Tournaments, lobbies: Lobbies | None = None, limit: int = 500
) -> SweepReport:
    """Advance every tournament whose next deadline has passed, then tend every due lobby.

    Idempotent and safe beside API requests: each save is conditional on the version read, and a
    conflict means someone else advanced it first, so it re-reads and finds less (or nothing) to
    do. A failure leaves that tournament as it was, for the next sweep.
    """
    now = ctx.now()
    if ctx.outage_watch is not None:
        ctx.outage_watch.refresh(now, beat=True)  # storage's heartbeat (api/service/outages.py)
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
    lobby_report = sweep_lobbies(ctx, lobbies, now, limit) if lobbies is not None else (0,) * 4
    return SweepReport(len(due), advanced, failed, *lobby_report)


def sweep_lobbies(
    ctx: Context, lobbies: Lobbies, now: int, limit: int
) -> tuple[int, int, int, int]:
    """D15, D16, D18: tend each due lobby; one that needed nothing is next due at its first
    idle seat or its fill by house bots (contacts only move the first later, so the sweep then
    finds it not yet due: as for tournaments, it moves it in the index and looks again then)."""
    due = ctx.repo.due_lobbies(now, limit)
    moves = freed = filled = 0
    for lobby_id in due:
        tended = lobbies.tend(lobby_id, now)
        moves, freed, filled = moves + tended.moves, freed + tended.freed, filled + tended.filled
        record = tended.record
        if record is None or record.id != lobby_id or tended.moves or tended.freed:
            continue  # written anew: due again a moment later, for another look
        if tended.filled:
            continue  # started: out of the index
        nxt = lobbies.next_due(record, now)
        if tended.stale and nxt is not None:  # it saw an index behind the store: again soon
            nxt = min(nxt, now + SETTLE_MS)
        if nxt != record.due:
            try:
                ctx.repo.reschedule_lobby(record.id, record.version, nxt)
            except StorageError as exc:
                log.warning(
                    "sweep could not reschedule a lobby",
                    extra={"fields": {"lobby_id": lobby_id, "error": str(exc)}},
                )
    return len(due), moves, freed, filled


def _reschedule(ctx: Context, record: TournamentRecord, due: int | None) -> None:
    """Nothing was due after all (a poll moved a last contact later): move it in the index,
    so the next sweep does not read it again. Only the sweep reads the index, so only it
    corrects it; polls never write for this."""
    if due != record.due:
        ctx.repo.reschedule(record.id, record.version, due)
