"""Open lobbies between joins: players who queue together meet (D15), silent players give up
their seats (D16), and a person who has waited long enough gets house bots (D18,
api/service/house_bots.py).

Both follow from what is stored (D10): each seat carries its player's last contact, and which
lobbies can meet is a pure function of their seats (core/merge.py). So a request that reads a
lobby and the sweep decide alike, whichever comes first. Who does it:

- every join and every poll of the queue (`GET /v1/queue`) tends the caller's lobby at once:
  it reads the open lobbies nearby (a bounded query of the `fill` index) and moves players
  together while it can. On Lambda, where the sweep runs once a minute, this is what gathers
  players who queue at the same moment within seconds.
- the sweep tends every lobby that is due: `SETTLE_MS` after each change of it (by then the
  index shows the lobbies that were created at the same moment, which a join could not see), at
  the first moment one of its seats falls idle, and when house bots are to fill it.

The index is eventually consistent: whatever it shows is read again by key before it is written,
and every write is conditional on the versions read, so a lost race is read again and decided
anew. No move loses or duplicates a seat: the lobbies and the moved players' records change in
one transaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from api.service.context import Context, guarded
from api.service.house_bots import HouseBots
from api.service.tournaments import start_writes
from api.storage import repository as storage
from api.storage.records import LobbyRecord, PlayerRecord
from api.storage.repository import Delete, Put, Write
from core import lobby as lb
from core import merge
from core.merge import Move

log = logging.getLogger("wordle_tournament")

SETTLE_MS = 2_000  # a changed lobby is due for the sweep this long after, when the index has it
MAX_STEPS = 12  # reads and moves one tending may take (races lost included)
PARTNERS_PER_STEP = 5  # candidates read again by key before giving up on this step


@dataclass(frozen=True, slots=True)
class Tended:
    record: LobbyRecord | None  # the lobby as left (for a player: the one they are in), if known
    moves: int = 0
    freed: int = 0
    stale: bool = False  # the index showed lobbies that had changed since: look again soon
    filled: bool = False  # D18: house bots filled it and its tournament started


@dataclass(frozen=True, slots=True)
class Met:
    move: Move | None
    freed: int = 0
    stale: bool = False


def nearby(
    ctx: Context, language: str, rating: float, home: str, *, everywhere: bool = False
) -> list[LobbyRecord]:
    """The open lobbies within 400 of `rating` (D6 within 200, D15 within 400), a bounded read
    of each `fill` partition.

    A busy band is spread over several shards (api/storage/layout.py); every reader reading all
    of them would put all the readers' load on each. So a reader reads its own shard of each
    band first (`home`: the joining player, or the lobby being tended, where it is listed) and
    the others only when its own showed nobody within 200 to play with. In a busy band it
    nearly always does; in a quiet one the reader reads every shard, as with one, and the load
    is small anyway. `everywhere`: read every shard at once (the sweep, rarely per lobby, so
    that lobbies listed in different shards still meet).
    """
    repo = ctx.repo
    window = 2 * lb.RATING_WINDOW  # two lobbies 400 apart may still meet
    count = repo.layout.fill_count(language)
    if count == 1 or everywhere:
        return repo.open_lobbies(language, rating, window)
    own = repo.layout.fill_shard(language, home)
    found = repo.open_lobbies(language, rating, window, shards=[own])
    if any(c.id != home and abs(c.lobby.rating - rating) <= lb.RATING_WINDOW for c in found):
        return found
    others = [s for s in range(count) if s != own]
    return found + repo.open_lobbies(language, rating, window, shards=others)


def saved(put: Put) -> LobbyRecord:
    """The lobby as stored by `put` once committed."""
    record = put.record
    assert isinstance(record, LobbyRecord)
    return replace(record, version=1 if put.new else record.version + 1)


class Lobbies:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.house = HouseBots(ctx)

    @property
    def idle_ms(self) -> int:
        """D16: D9's 60 s (WT_RECONNECT_SECONDS)."""
        return self.ctx.settings.timing.reconnect_ms

    def write(self, record: LobbyRecord, now: int, *, new: bool = False) -> Put:
        """Every write of a lobby goes through here: an open lobby is due for the sweep when
        the index has settled (D15), at its first idle seat (D16) or when house bots fill it
        (D18), whichever comes first."""
        due = None
        if record.open:
            times = [now + SETTLE_MS, lb.idle_deadline(record.lobby, self.idle_ms)]
            times.append(self.house.fill_at(record))
            due = min(t for t in times if t is not None)
        return Put(replace(record, due=due), new=new)

    def next_due(self, record: LobbyRecord, now: int) -> int | None:
        """When the sweep must look at a lobby it has just tended: its first idle seat, or
        when house bots fill it (a fill that was due and did not happen: again soon)."""
        if not record.open:
            return None
        fill = self.house.fill_at(record)
        times = [lb.idle_deadline(record.lobby, self.idle_ms)]
        times.append(None if fill is None else max(fill, now + SETTLE_MS))
        return min((t for t in times if t is not None), default=None)

    def heard_from(self, record: LobbyRecord, player_id: str, now: int) -> LobbyRecord:
        """D9, D16: a request from a seated player is a contact; stored at most once per player
        per contact interval (a sixth of the window, at most 10 s), so a silent player loses the
        seat between five sixths of a window and a window after their last request."""
        seat = next((s for s in record.lobby.seats if s.player == player_id), None)
        if seat is None or not record.open:
            return record
        if now - seat.seen >= self.ctx.settings.timing.contact_interval_ms:
            guarded(lambda: self.ctx.repo.touch_lobby(record.id, player_id, now))
        return replace(record, lobby=lb.heard_from(record.lobby, {player_id: now}))

    # ------------------------------------------------------------------ D16

    def free_idle(self, record: LobbyRecord, now: int) -> tuple[LobbyRecord | None, int]:
        """D16: players not heard from for 60 s give up their seats, as if they had left (R19,
        no penalty; a group member stays in the group). An emptied lobby closes."""
        gone = lb.idle(record.lobby, now, self.idle_ms)
        if not gone or not record.open:
            return record, 0
        lobby = record.lobby
        for player in gone:
            lobby = lb.unseat(lobby, player)
        writes: list[Write] = [
            Put(replace(p, lobby_id=None, queued_at=None))
            for p in self.ctx.repo.get_players(gone)
            if p.lobby_id == record.id
        ]
        log.info(
            "idle seats freed",
            extra={"fields": {"lobby_id": record.id, "players": list(gone)}},
        )
        if not lobby.seats:
            self.ctx.repo.commit([*writes, Delete(record)])
            return None, len(gone)
        put = self.write(replace(record, lobby=lobby), now)
        self.ctx.repo.commit([*writes, put])
        return saved(put), len(gone)

    # ------------------------------------------------------------------ D18

    def fill_if_due(
        self, record: LobbyRecord, now: int, *, verify: bool = False
    ) -> tuple[bool, LobbyRecord | None, int]:
        """D18, D10: if house bots were to fill this open lobby by `now`, fill it as it stood
        then (seats idle by then freed first, D16), and start its tournament at that moment:
        (True, the started lobby, or None if it emptied; the seats freed). Else (False, the
        lobby as it is, 0). A lost race raises storage.Conflict."""
        fill_at = self.house.fill_at(record)
        if fill_at is None or fill_at > now:
            return False, record, 0
        freed_record, freed = self.free_idle(record, fill_at)
        if freed_record is None or not freed_record.open:
            return True, None, freed
        started = self.house.fill(freed_record, now, verify=verify)
        if started is None:  # its last person went with the idle seats: nothing to fill
            return False, freed_record, freed
        return True, started, freed

    # ------------------------------------------------------------------ D15

    def _meet(self, record: LobbyRecord, candidates: list[LobbyRecord], now: int) -> Met:
        """Commit the best move of `record` with one of `candidates`, each read again by key
        first (the index may lag)."""
        others = {c.id: c for c in candidates if c.id != record.id}
        freed = 0
        stale = False
        for _ in range(PARTNERS_PER_STEP):
            found = merge.best(record.lobby, (c.lobby for c in others.values()))
            if found is None:
                break
            partner = others.pop(found[1].id)
            fresh = self._follow(partner.id, record.id)
            if fresh is None or (fresh.id, fresh.version) != (partner.id, partner.version):
                stale = True
            if fresh is not None and fresh.open:
                due, fresh, n = self.fill_if_due(fresh, now)
                freed += n
                if due:
                    continue  # D18: it started (or emptied) when it was due, before this
                assert fresh is not None
                fresh, n = self.free_idle(fresh, now)
                freed += n
            if fresh is None or not fresh.open:
                continue
            move = merge.plan(record.lobby, fresh.lobby)
            if move is None:
                continue
            self._commit_move(record, fresh, move, now)
            return Met(move, freed, stale)
        return Met(None, freed, stale)

    def _follow(self, lobby_id: str, mine: str) -> LobbyRecord | None:
        """A lobby as stored; if it merged into another since the index saw it, that one (not
        `mine`): a stale index entry still leads to the players it showed."""
        record = self.ctx.repo.get_lobby(lobby_id)
        for _ in range(2):
            if record is None or record.moved_to in (None, mine) or record.lobby.seats:
                break
            assert record.moved_to is not None
            record = self.ctx.repo.get_lobby(record.moved_to)
        return record

    def _seated(self, ids: list[str] | tuple[str, ...], lobby_id: str) -> list[PlayerRecord]:
        """The players `ids`, all seated in `lobby_id` (else: a race, read again)."""
        players = self.ctx.repo.get_players(ids)
        if len(players) != len(ids) or any(p.lobby_id != lobby_id for p in players):
            raise storage.Conflict(f"the players of lobby {lobby_id} changed")
        return players

    def _commit_move(self, a: LobbyRecord, b: LobbyRecord, move: Move, now: int) -> None:
        """One transaction: both lobbies, the moved players, and the tournament if it starts."""
        target, source = (a, b) if move.target.id == a.id else (b, a)
        movers = self._seated(move.moved, source.id)
        after = replace(target, lobby=move.target, seated_at=now)  # D18: seats taken now
        # The source keeps where its players went, so that they can be followed there.
        left = replace(source, lobby=move.source, moved_to=target.id)
        source_write = Put(replace(left, due=None)) if move.closes else self.write(left, now)
        if move.starts:
            others = self._seated([s.player for s in target.lobby.seats], target.id)
            _, writes = start_writes(self.ctx, after, [*others, *movers], now)
            self.ctx.repo.commit([*writes, source_write])
        else:
            moved = [Put(replace(p, lobby_id=target.id)) for p in movers]
            self.ctx.repo.commit([self.write(after, now), source_write, *moved])
        log.info(
            "lobbies met",
            extra={
                "fields": {
                    "target": target.id,
                    "source": source.id,
                    "moved": len(move.moved),
                    "started": move.starts,
                }
            },
        )

    # ------------------------------------------------------------------ tending

    def tend(
        self,
        lobby_id: str,
        now: int,
        *,
        player: str | None = None,
        record: LobbyRecord | None = None,
        candidates: list[LobbyRecord] | None = None,
    ) -> Tended:
        """Bring a lobby up to date at `now`: if house bots were to fill it by now, fill it
        (D18); else free its idle seats (D16), then let it meet the open lobbies nearby until
        it meets none (D15).

        With `player`, follow that player into whichever lobby they end up in; `record` and
        `candidates` save the reads a caller has just made. Without (the sweep), read every
        shard of the lobby's bands. Best effort: a lost race is read
        again, a storage fault leaves the rest to the next request or sweep.
        """
        moves = freed = conflicts = 0
        for _ in range(MAX_STEPS):
            try:
                if record is None:
                    record = self.ctx.repo.get_lobby(lobby_id)
                if record is None:
                    return Tended(None, moves, freed)
                if player is not None and not record.lobby.has(player):
                    if record.moved_to is None or record.tournament_id is not None:
                        return Tended(None, moves, freed)
                    lobby_id, record, candidates = record.moved_to, None, None
                    continue
                if not record.open:
                    return Tended(record, moves, freed)
                due, record, n = self.fill_if_due(record, now, verify=conflicts > 0)
                freed += n
                if due:
                    return Tended(record, moves, freed, filled=record is not None)
                assert record is not None
                record, n = self.free_idle(record, now)
                freed += n
                if record is None or not record.open:
                    return Tended(record, moves, freed)
                if candidates is None:
                    lobby = record.lobby
                    candidates = nearby(
                        self.ctx, lobby.language, lobby.rating, lobby.id, everywhere=player is None
                    )
                met = self._meet(record, candidates, now)
                freed += met.freed
                if met.move is None:
                    return Tended(record, moves, freed, met.stale)
                move = met.move
                moves += 1
                if player in move.moved or (player is None and move.closes):
                    lobby_id = move.target.id
                record, candidates = None, None
            except storage.Conflict:
                record = None  # someone else wrote first: read again, decide again
                conflicts += 1
            except storage.Unavailable as exc:
                log.warning(
                    "tending a lobby stopped",
                    extra={"fields": {"lobby_id": lobby_id, "error": str(exc)}},
                )
                break
        return Tended(None, moves, freed)
