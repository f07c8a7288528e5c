"""An in-memory repository with the same semantics as DynamoDB's conditional writes.

For fast service tests and for `make run` without DynamoDB. Thread-safe.

DynamoDB updates a global secondary index after the write to the table commits, so a query may
miss a lobby created a moment ago or show an older version of it. `index_lag_ms` models that:
the `fill` and `due` indexes (`open_lobbies`, `due_tournaments`, `due_lobbies`) then show every
lobby and tournament as it was `index_lag_ms` before the clock's now (the injected clock, or the
wall clock). Reads by key are always current, as DynamoDB's strongly consistent reads are.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from api.storage.records import (
    ClockRecord,
    GroupRecord,
    HistoryRecord,
    LobbyRecord,
    PlayerRecord,
    Record,
    StatsRecord,
    TournamentRecord,
)
from api.storage.repository import LOBBIES_PER_BAND, Conflict, Delete, Put, Repository, Write
from api.storage.table import open_key, open_sort_key, rating_band, rating_bands
from core.leaderboard import Board, Entry, part_of
from core.lobby import heard_from
from core.records import evolve

Key = tuple[type, str]
INDEXED = (LobbyRecord, TournamentRecord, HistoryRecord, StatsRecord)


def _key(record: Record) -> Key:
    return type(record), record.id


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class InMemoryRepository(Repository):
    def __init__(self, index_lag_ms: int = 0, clock: Callable[[], int] | None = None) -> None:
        self._lock = threading.Lock()
        self._items: dict[Key, Any] = {}
        self._contacts: dict[str, dict[str, int]] = {}
        self._lobby_contacts: dict[str, dict[str, int]] = {}
        self._counters: dict[str, dict[int, int]] = {}
        self._heartbeat: ClockRecord | None = None
        self.index_lag_ms = index_lag_ms
        self._clock = clock or _wall_clock_ms
        # What the indexes have seen: per lobby and tournament, (time, record or None) in order.
        self._history: dict[Key, list[tuple[int, Any]]] = {}
        self._boards: dict[str, Board] = {}
        self._parts: dict[int, dict[str, Board]] = {}
        self._refreshed: int | None = None

    # ------------------------------------------------------------------ the lagging indexes

    def _set(self, key: Key, value: Any) -> None:
        """Store (or, with None, delete) an item; the caller holds the lock."""
        if value is None:
            self._items.pop(key, None)
        else:
            self._items[key] = value
        if self.index_lag_ms <= 0 or key[0] not in INDEXED:
            return
        now = self._clock()
        entries = self._history.setdefault(key, [])
        entries.append((now, value))
        cutoff = now - self.index_lag_ms
        while len(entries) > 1 and entries[1][0] <= cutoff:
            del entries[0]  # older than what any index read can still see

    def _indexed(self, kind: type) -> list[Any]:
        """The items of `kind` as the indexes show them now; the caller holds the lock."""
        if self.index_lag_ms <= 0:
            return [v for (k, _), v in self._items.items() if k is kind]
        cutoff = self._clock() - self.index_lag_ms
        seen = []
        gone = []
        for key, entries in self._history.items():
            if key[0] is not kind:
                continue
            visible = [value for at, value in entries if at <= cutoff]
            if visible and visible[-1] is not None:
                seen.append(visible[-1])
            elif visible and len(entries) == 1:
                gone.append(key)  # deleted long enough ago for every index read
        for key in gone:
            del self._history[key]
        return seen

    # ------------------------------------------------------------------ reads

    def _get(self, kind: type, item_id: str) -> Any:
        with self._lock:
            return self._items.get((kind, item_id))

    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        result: PlayerRecord | None = self._get(PlayerRecord, player_id)
        return result

    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        found = (self.get_player(pid) for pid in player_ids)
        return [p for p in found if p is not None]

    def _with_contacts(self, record: LobbyRecord) -> LobbyRecord:
        stamps = self._lobby_contacts.get(record.id)
        return replace(record, lobby=heard_from(record.lobby, stamps)) if stamps else record

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None:
        with self._lock:
            record: LobbyRecord | None = self._items.get((LobbyRecord, lobby_id))
            return None if record is None else self._with_contacts(record)

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        with self._lock:
            record: TournamentRecord | None = self._items.get((TournamentRecord, tournament_id))
            if record is None:
                return None
            return evolve(record, contacts=dict(self._contacts.get(tournament_id, {})))

    def get_group(self, group_id: str) -> GroupRecord | None:
        result: GroupRecord | None = self._get(GroupRecord, group_id)
        return result

    def open_lobbies(
        self, language: str, rating: float, window: int, limit: int = LOBBIES_PER_BAND
    ) -> list[LobbyRecord]:
        """Like the `fill` index: per band, the fullest first, then the oldest; `limit` each."""
        with self._lock:
            bands: dict[str, list[LobbyRecord]] = defaultdict(list)
            for record in self._indexed(LobbyRecord):
                if record.open:
                    lobby = record.lobby
                    bands[open_key(lobby.language, rating_band(lobby.rating))].append(record)
            found: list[LobbyRecord] = []
            for band in rating_bands(rating, window):
                listed = sorted(
                    bands[open_key(language, band)],
                    key=lambda r: open_sort_key(r.lobby.open_seats, r.lobby.created_at),
                )
                found += [self._with_contacts(r) for r in listed[:limit]]
        return [lb for lb in found if abs(lb.lobby.rating - rating) <= window]

    def _due(self, kind: type, now: int, limit: int) -> list[str]:
        with self._lock:
            due = sorted(
                (v.due, v.id)
                for v in self._indexed(kind)
                if v.due is not None and v.due <= now and (kind is not LobbyRecord or v.open)
            )
        return [item_id for _, item_id in due[: max(limit, 0)]]

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        return self._due(TournamentRecord, now, limit)

    def due_lobbies(self, now: int, limit: int) -> list[str]:
        return self._due(LobbyRecord, now, limit)

    # ------------------------------------------------------------------ small updates

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        with self._lock:
            if (TournamentRecord, tournament_id) not in self._items:
                return  # like DynamoDB's conditional update: no tournament, nothing to stamp
            stamps = self._contacts.setdefault(tournament_id, {})
            stamps[player_id] = max(now, stamps.get(player_id, now))

    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        with self._lock:
            record = self._items.get((LobbyRecord, lobby_id))
            if record is None or record.tournament_id is not None:
                return
            stamps = self._lobby_contacts.setdefault(lobby_id, {})
            stamps[player_id] = max(now, stamps.get(player_id, now))

    def get_clock(self, *, consistent: bool = False) -> ClockRecord | None:
        with self._lock:
            return self._heartbeat

    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        with self._lock:
            if self._heartbeat != expected:
                return False
            self._heartbeat = new
            return True

    def touch_player(self, player_id: str, now: int) -> None:
        with self._lock:
            key = (PlayerRecord, player_id)
            record = self._items.get(key)
            if record is not None and record.last_contact < now:
                self._set(key, replace(record, last_contact=now))

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        with self._lock:
            key = (TournamentRecord, tournament_id)
            record = self._items.get(key)
            if record is not None and record.version == version:
                self._set(key, replace(record, due=due))

    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        with self._lock:
            key = (LobbyRecord, lobby_id)
            record = self._items.get(key)
            if record is not None and record.version == version and record.open:
                self._set(key, replace(record, due=due))

    # ------------------------------------------------------------------ commit

    def commit(self, writes: Sequence[Write]) -> None:
        with self._lock:
            keys = [_key(w.record) for w in writes]
            if len(set(keys)) != len(keys):
                raise ValueError("a transaction touches each item once")
            for write, key in zip(writes, keys, strict=True):
                stored = self._items.get(key)
                if isinstance(write, Put) and write.new:
                    if stored is not None:
                        raise Conflict(f"{key[0].__name__} {key[1]} already exists")
                elif stored is None or stored.version != write.record.version:
                    raise Conflict(f"{key[0].__name__} {key[1]} changed")
            for write, key in zip(writes, keys, strict=True):
                if key[0] is LobbyRecord:
                    self._lobby_contacts.pop(key[1], None)  # as DynamoDB's put empties `c`
                if isinstance(write, Delete):
                    self._set(key, None)
                    if key[0] is TournamentRecord:
                        self._contacts.pop(key[1], None)
                else:
                    version = 1 if write.new else write.record.version + 1
                    self._set(key, replace(write.record, version=version))

    def count(self, key: str, window: int, window_ms: int, add: int) -> tuple[int, int]:
        with self._lock:
            if len(self._counters) > 50_000:  # forget subjects not counted lately
                self._counters = {
                    k: v for k, v in self._counters.items() if max(v, default=0) >= window - 1
                }
            counts = self._counters.setdefault(key, {})
            counts[window] = counts.get(window, 0) + add
            for old in [w for w in counts if w < window - 1]:
                del counts[old]
            return counts[window], counts.get(window - 1, 0)

    # ------------------------------------------------------------------ players' records

    def _all(self, kind: type) -> list[Any]:
        """The records of `kind` as their (perhaps lagging) index shows them."""
        with self._lock:
            return self._indexed(kind)

    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        found = (self._get(StatsRecord, pid) for pid in player_ids)
        return [s for s in found if s is not None]

    def history(
        self, player_id: str, limit: int, after: tuple[int, str] | None = None
    ) -> list[HistoryRecord]:
        def position(r: HistoryRecord) -> tuple[int, str]:
            return r.result.finished_at, r.result.tournament_id

        lines = [r for r in self._all(HistoryRecord) if r.player_id == player_id]
        lines.sort(key=position, reverse=True)
        if after is not None:
            lines = [r for r in lines if position(r) < after]
        return lines[:limit]

    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        for r in self._all(StatsRecord):
            s = r.stats
            if part is not None and part_of(r.player_id) != part:
                continue
            if not s.bot and s.last_played is not None and s.last_played >= since:
                yield Entry(r.player_id, s.nickname, s.rating, s.last_played, dict(s.languages))

    def get_board(self, name: str) -> Board | None:
        with self._lock:
            return self._boards.get(name)

    def save_board(self, board: Board) -> None:
        with self._lock:
            stored = self._boards.get(board.name)
            if stored is None or stored.renewed_at < board.renewed_at:
                self._boards[board.name] = board

    def get_parts(self) -> dict[int, dict[str, Board]]:
        with self._lock:
            return {part: dict(boards) for part, boards in self._parts.items()}

    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        with self._lock:
            stored = self._parts.get(part)
            at = max((b.renewed_at for b in boards.values()), default=0)
            if stored is None or max(b.renewed_at for b in stored.values()) < at:
                self._parts[part] = dict(boards)

    def claim_refresh(self, now: int, every_ms: int) -> bool:
        with self._lock:
            if self._refreshed is not None and self._refreshed > now - every_ms:
                return False
            self._refreshed = now
            return True
