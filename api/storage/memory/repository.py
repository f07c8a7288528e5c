"""An in-memory repository with the same semantics as DynamoDB's conditional writes.

For fast service tests and for `bench scale`. Thread-safe. Made of parts, each in its module of
api/storage/memory/: the items and their lagging indexes (items.py, index.py), the state every
part shares (state.py), index queries (queries.py), small updates, stamps and deadlines
(small_updates.py), commits (commits.py), rate-limit counters and the heartbeat
(counters_and_heartbeat.py), and players' history, statistics and leaderboards (history.py);
reads by key are here. An observer (observer.py) hears every call when one is given, as the
capacity meter does (api/storage/metering/memory.py).

DynamoDB updates a global secondary index after the write to the table commits, so a query may
miss a lobby created a moment ago or show an older version of it. `index_lag_ms` models that:
the `fill` and `due` indexes (`open_lobbies`, `due_tournaments`, `due_lobbies`) then show every
lobby and tournament as it was `index_lag_ms` before the clock's now (the injected clock, or the
wall clock). Reads by key are always current, as DynamoDB's strongly consistent reads are.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from api.storage import keys
from api.storage.forwarding import ForwardsHistory
from api.storage.layout import Layout
from api.storage.memory.commits import MemoryCommits
from api.storage.memory.counters_and_heartbeat import MemoryCountersAndHeartbeat
from api.storage.memory.history import MemoryHistory
from api.storage.memory.items import Items, Key
from api.storage.memory.observer import Observer
from api.storage.memory.queries import MemoryQueries
from api.storage.memory.small_updates import MemorySmallUpdates
from api.storage.records import (
    ClockRecord,
    GroupRecord,
    LobbyRecord,
    PlayerRecord,
    TournamentRecord,
)
from api.storage.repository import Repository
from core.evolve import evolve

if TYPE_CHECKING:
    from api.storage.metering.meter import Meter


class InMemoryRepository(
    ForwardsHistory,
    MemoryQueries,
    MemorySmallUpdates,
    MemoryCommits,
    MemoryCountersAndHeartbeat,
    Repository,
):
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

    # ------------------------------------------------------------------ index queries

    # idle_bots, open_lobbies, due_tournaments, due_lobbies: MemoryQueries (queries.py)

    # ------------------------------------------------------------------ small updates

    # touch … reschedule_lobby: MemorySmallUpdates (small_updates.py)

    # ------------------------------------------------------------------ commit

    # commit: MemoryCommits (commits.py)

    # ------------------------------------------------------------------ counters, heartbeat

    # count, get_clock, put_clock_copy, put_clock: MemoryCountersAndHeartbeat
    # (counters_and_heartbeat.py)

    # ------------------------------------------------------------------ history, leaderboards

    # get_stats … claim_refresh: ForwardsHistory (api/storage/forwarding.py)
