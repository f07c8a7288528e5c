"""An in-memory repository with the same semantics as DynamoDB's conditional writes.

For fast service tests and for `bench scale`. Thread-safe. Made of parts: the items and their
lagging indexes (items.py, index.py), and players' history, statistics and leaderboards
(history.py); an observer (observer.py) hears every call when one is given, as the capacity
meter does (api/storage/metering/memory.py).

DynamoDB updates a global secondary index after the write to the table commits, so a query may
miss a lobby created a moment ago or show an older version of it. `index_lag_ms` models that:
the `fill` and `due` indexes (`open_lobbies`, `due_tournaments`, `due_lobbies`) then show every
lobby and tournament as it was `index_lag_ms` before the clock's now (the injected clock, or the
wall clock). Reads by key are always current, as DynamoDB's strongly consistent reads are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from api.storage import keys
from api.storage.counter_windows import kept, updatable
from api.storage.forwarding import ForwardsHistory
from api.storage.layout import Layout
from api.storage.memory.history import MemoryHistory
from api.storage.memory.items import Items, Key
from api.storage.memory.observer import Image, Observer
from api.storage.records import (
    ClockRecord,
    GroupRecord,
    LobbyRecord,
    PlayerRecord,
    Record,
    TournamentRecord,
)
from api.storage.repository import (
    LOBBIES_PER_BAND,
    Conflict,
    Delete,
    Put,
    Repository,
    Write,
    due_page_limit,
)
from core.evolve import evolve
from core.lobby import heard_from

if TYPE_CHECKING:
    from api.storage.metering.meter import Meter


def _key(record: Record) -> Key:
    return type(record), record.id


class InMemoryRepository(ForwardsHistory, Repository):
    def __init__(
        self,
        index_lag_ms: int = 0,
        clock: Callable[[], int] | None = None,
        *,
        layout: Layout | None = None,
        meter: Meter | None = None,
        stale_reads: bool = False,
    ) -> None:
        """`layout`: the index shards (as the adapter's settings); `meter`: what each call
        would cost on DynamoDB, per key too if it has a tally (api/storage/metering/memory.py);
        `stale_reads`: an eventually consistent read of a tournament or a player finds the
        version before the latest (DynamoDB's replication lag at its worst: tests of who reads
        eventually)."""
        self.layout = layout or Layout()
        self.meter = meter
        self._observer: Observer | None = None
        if meter is not None:
            from api.storage.metering.memory import FakeMeter

            self._observer = FakeMeter(meter, self.layout)
        self.index_lag_ms = index_lag_ms
        self._table = Items(self.layout, index_lag_ms, clock)
        self._lock = self._table.lock
        self._items = self._table.records
        self._contacts: dict[str, dict[str, int]] = {}
        self._lobby_contacts: dict[str, dict[str, int]] = {}
        self._counters: dict[str, dict[int, int]] = {}
        self._health: int | None = None  # the health item's stamp (probe)
        self._counters_kept = 50_000  # subjects kept before forgetting those not counted lately
        self._heartbeat: ClockRecord | None = None
        self._clock_copies: dict[int, ClockRecord] = {}
        self.stale_reads = stale_reads
        self._before: dict[Key, Any] = {}  # each tournament's and player's version before
        self._history = MemoryHistory(self._table, self._observer)

    def copy(self) -> InMemoryRepository:
        """Another repository holding the same items as this one now, its indexes current
        (tests freeze an index view with it)."""
        other = InMemoryRepository(clock=self._table.clock, layout=self.layout)
        with self._lock:
            for key, value in self._items.items():
                other._table.set(key, value)
            other._contacts = {k: dict(v) for k, v in self._contacts.items()}
            other._lobby_contacts = {k: dict(v) for k, v in self._lobby_contacts.items()}
        return other

    def describe(self) -> dict[str, str | None]:
        return {"store": "memory", "table": None}

    def ping(self) -> None:
        """Always reachable."""

    def probe(self, now: int) -> None:
        """Always writable: the health item is kept like any other."""
        with self._lock:
            self._health = now

    def _stamps(self, key: Key) -> dict[str, int]:
        """The contact map stored beside a tournament or lobby; the caller holds the lock."""
        if key[0] is TournamentRecord:
            return self._contacts.get(key[1], {})
        if key[0] is LobbyRecord:
            return self._lobby_contacts.get(key[1], {})
        return {}

    def _image(self, key: Key) -> Image:
        """The stored item of `key` and its stamps, for the observer; the caller holds the lock."""
        return self._items.get(key), dict(self._stamps(key))

    # ------------------------------------------------------------------ reads

    def _get(self, kind: type, item_id: str, operation: str, consistent: bool = True) -> Any:
        with self._lock:
            record = self._items.get((kind, item_id))
            stamps = dict(self._stamps((kind, item_id)))
        if self._observer is not None:
            pk = keys.key_of(kind, item_id)
            self._observer.read(operation, pk, record, stamps, consistent=consistent)
        return record

    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        result: PlayerRecord | None = self._get(PlayerRecord, player_id, "get_player", consistent)
        if result is not None and not consistent and self.stale_reads:
            with self._lock:
                before: PlayerRecord = self._before.get((PlayerRecord, player_id), result)
                return before
        return result

    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        with self._lock:
            found = [self._items.get((PlayerRecord, pid)) for pid in player_ids]
        if self._observer is not None and player_ids:
            unique = dict(zip(player_ids, found, strict=True))
            pairs = ((keys.key_of(PlayerRecord, k), v) for k, v in unique.items())
            self._observer.read_many("get_players", pairs)
        return [p for p in found if p is not None]

    def idle_bots(self, rating: float, window: int, limit: int) -> list[PlayerRecord]:
        """Like the adapter's: each side of `rating` read nearest first until `limit`."""
        found: list[PlayerRecord] = []
        for side, forward in zip(keys.idle_ranges(rating, window), (True, False), strict=True):
            taken = 0
            for band, low, high in side:
                if taken >= limit:
                    break
                key = keys.idle_key(band)
                with self._lock:
                    listed = [
                        r
                        for r in self._table.partition(keys.OPEN_INDEX, key)
                        if keys.idle_sort_key(low) <= keys.idle_sort_key(r.rating)
                        and keys.idle_sort_key(r.rating) <= keys.idle_sort_key(high)
                    ]
                listed.sort(key=lambda r: keys.idle_sort_key(r.rating), reverse=not forward)
                page = listed[: limit - taken]
                self._observe_query("idle_bots", keys.OPEN_INDEX, key, page)
                found += page
                taken += len(page)
        return sorted(found, key=lambda b: (abs(b.rating - rating), b.id))

    def _with_contacts(self, record: LobbyRecord) -> LobbyRecord:
        stamps = self._lobby_contacts.get(record.id)
        return replace(record, lobby=heard_from(record.lobby, stamps)) if stamps else record

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None:
        record: LobbyRecord | None = self._get(LobbyRecord, lobby_id, "get_lobby")
        if record is None:
            return None
        with self._lock:
            return self._with_contacts(record)

    def get_tournament(
        self, tournament_id: str, *, consistent: bool = True
    ) -> TournamentRecord | None:
        record: TournamentRecord | None = self._get(
            TournamentRecord, tournament_id, "get_tournament", consistent
        )
        if record is None:
            return None
        with self._lock:
            if not consistent and self.stale_reads:
                record = self._before.get((TournamentRecord, tournament_id), record)
            return evolve(record, contacts=dict(self._contacts.get(tournament_id, {})))

    def get_group(self, group_id: str) -> GroupRecord | None:
        result: GroupRecord | None = self._get(GroupRecord, group_id, "get_group")
        return result

    def _observe_query(self, operation: str, index: str, key: str, found: list[Any]) -> None:
        """Tell the observer of one index query that returned `found` (the lock is not held)."""
        if self._observer is None:
            return
        with self._lock:
            pages = [(record, dict(self._stamps(_key(record)))) for record in found]
        self._observer.query(operation, index, key, pages)

    def open_lobbies(
        self,
        language: str,
        rating: float,
        window: int,
        limit: int = LOBBIES_PER_BAND,
        shards: Sequence[int] | None = None,
    ) -> list[LobbyRecord]:
        """Like the `fill` index: per partition, the fullest first, then the oldest; `limit`
        each."""
        found: list[LobbyRecord] = []
        for band in keys.rating_bands(rating, window):
            for key in self.layout.fill_keys(language, band, shards):
                with self._lock:
                    listed = sorted(
                        self._table.partition(keys.OPEN_INDEX, key),
                        key=lambda r: keys.open_sort_key(r.lobby.open_seats, r.lobby.created_at),
                    )[: max(limit, 0)]
                self._observe_query("open_lobbies", keys.OPEN_INDEX, key, listed)
                with self._lock:
                    found += [self._with_contacts(r) for r in listed]
        return [lb for lb in found if abs(lb.lobby.rating - rating) <= window]

    def _due(self, operation: str, partitions: list[str], now: int, limit: int) -> list[str]:
        if limit <= 0:
            return []
        per_shard = due_page_limit(limit, len(partitions))
        due: list[tuple[int, str]] = []
        for key in partitions:
            with self._lock:
                entries = self._table.partition(keys.DUE_INDEX, key)
            page = sorted((r for r in entries if r.due <= now), key=lambda r: (r.due, r.id))
            page = page[:per_shard]
            self._observe_query(operation, keys.DUE_INDEX, key, page)
            due += [(r.due, r.id) for r in page]
        return [item_id for _, item_id in sorted(due)[:limit]]

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        return self._due("due_tournaments", self.layout.due_keys(), now, limit)

    def due_lobbies(self, now: int, limit: int) -> list[str]:
        return self._due("due_lobbies", self.layout.lobby_due_keys(), now, limit)

    # ------------------------------------------------------------------ small updates

    def _small_update(self, operation: str, key: Key, change: Callable[[], bool]) -> None:
        """An update without a version bump: `change` applies it (the lock held) and says
        whether its condition held; observed with the item before and after."""
        with self._lock:
            before = None if self._observer is None else self._image(key)
            applied = change()
            after = None if self._observer is None else self._image(key)
        if self._observer is not None and before is not None and after is not None:
            pk = keys.key_of(*key)
            self._observer.updated(operation, pk, before, after, applied=applied)

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        key = (TournamentRecord, tournament_id)

        def change() -> bool:
            if key not in self._items:
                return False  # like DynamoDB's conditional update: nothing to stamp
            stamps = self._contacts.setdefault(tournament_id, {})
            if stamps.get(player_id, now - 1) >= now:
                return False
            stamps[player_id] = now
            return True

        self._small_update("touch", key, change)

    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        key = (LobbyRecord, lobby_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.tournament_id is not None:
                return False
            stamps = self._lobby_contacts.setdefault(lobby_id, {})
            if stamps.get(player_id, now - 1) >= now:
                return False
            stamps[player_id] = now
            return True

        self._small_update("touch_lobby", key, change)

    def touch_player(self, player_id: str, now: int) -> None:
        key = (PlayerRecord, player_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.last_contact >= now:
                return False
            self._table.set(key, replace(record, last_contact=now))
            return True

        self._small_update("touch_player", key, change)

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        key = (TournamentRecord, tournament_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.version != version:
                return False
            self._table.set(key, replace(record, due=due))
            return True

        self._small_update("reschedule", key, change)

    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        key = (LobbyRecord, lobby_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.version != version or not record.open:
                return False
            self._table.set(key, replace(record, due=due))
            return True

        self._small_update("reschedule_lobby", key, change)

    # ------------------------------------------------------------------ commit

    def commit(self, writes: Sequence[Write]) -> None:
        with self._lock:
            keys_ = [_key(w.record) for w in writes]
            if len(set(keys_)) != len(keys_):
                raise ValueError("a transaction touches each item once")
            before = [None if self._observer is None else self._image(k) for k in keys_]
            try:
                self._check(writes, keys_)
            except Conflict:
                self._observe_commit(writes, before, applied=False)
                raise
            for write, key in zip(writes, keys_, strict=True):
                if key[0] is LobbyRecord:
                    self._lobby_contacts.pop(key[1], None)  # as DynamoDB's put empties `c`
                if isinstance(write, Delete):
                    self._table.set(key, None)
                    if key[0] is TournamentRecord:
                        self._contacts.pop(key[1], None)
                else:
                    version = 1 if write.new else write.record.version + 1
                    if key[0] in (TournamentRecord, PlayerRecord) and self.stale_reads:
                        old = self._items.get(key)
                        if old is not None:
                            self._before[key] = old
                    self._table.set(key, replace(write.record, version=version))
            self._observe_commit(writes, before, applied=True)

    def _check(self, writes: Sequence[Write], keys_: list[Key]) -> None:
        for write, key in zip(writes, keys_, strict=True):
            stored = self._items.get(key)
            if isinstance(write, Put) and write.new:
                if stored is not None:
                    raise Conflict(f"{key[0].__name__} {key[1]} already exists")
            elif stored is None or stored.version != write.record.version:
                raise Conflict(f"{key[0].__name__} {key[1]} changed")

    def _observe_commit(
        self, writes: Sequence[Write], before: list[Image | None], *, applied: bool
    ) -> None:
        """The caller holds the lock. A failed commit is observed as the adapter's: each item
        as the write would have left it."""
        if self._observer is None:
            return
        changes: list[tuple[Image, Image]] = []
        for write, old in zip(writes, before, strict=True):
            assert old is not None
            record = write.record
            if isinstance(write, Delete):
                changes.append((old, (None, {})))
                continue
            version = 1 if write.new else record.version + 1
            stored = self._items.get(_key(record)) if applied else None
            after = stored if stored is not None else replace(record, version=version)
            changes.append((old, (after, dict(self._stamps(_key(record))))))
        self._observer.committed(changes, applied=applied)

    # ------------------------------------------------------------------ counters, heartbeat

    def count(self, key: str, window: int, window_ms: int, add: int) -> tuple[int, int]:
        with self._lock:
            if len(self._counters) > self._counters_kept:  # forget subjects not counted lately
                self._counters = {
                    k: v for k, v in self._counters.items() if max(v, default=0) >= window - 1
                }
                self._counters_kept = max(50_000, 2 * len(self._counters))
            counts = self._counters.get(key)
            # As the adapter: one write, or two when the counter is rebuilt (a failed update).
            writes = 1 if updatable(max(counts, default=None) if counts else None, window) else 2
            _, counts = kept(counts or {}, window, add)
            self._counters[key] = counts
            found = counts.get(window, 0), counts.get(window - 1, 0)
        if self._observer is not None:
            for _ in range(writes):
                self._observer.counted(key)
        return found

    def get_clock(self, *, consistent: bool = False, copy: int | None = None) -> ClockRecord | None:
        with self._lock:
            found = self._heartbeat if copy is None else self._clock_copies.get(copy)
        if self._observer is not None:
            key = keys.CLOCK if copy is None else keys.clock_copy_key(copy)
            self._observer.read_clock(found, consistent=consistent, key=key)
        return found

    def put_clock_copy(self, copy: int, clock: ClockRecord) -> None:
        with self._lock:
            held = self._clock_copies.get(copy)
            if held is None or held.at < clock.at:
                self._clock_copies[copy] = clock
        if self._observer is not None:
            self._observer.wrote_clock(clock, keys.clock_copy_key(copy))

    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        with self._lock:
            applied = self._heartbeat == expected
            if applied:
                self._heartbeat = new
        if self._observer is not None:
            self._observer.wrote_clock(new)
        return applied

    # ------------------------------------------------------------------ history, leaderboards

    # get_stats … claim_refresh: ForwardsHistory (api/storage/forwarding.py)
