"""The repository on one DynamoDB table, through PynamoDB's TableConnection.

Made of parts, each in its module of api/storage/dynamodb/: the table's connection and the calls
every part makes (connection.py), index queries, a thread per partition (queries.py), players'
history, statistics and leaderboards (history.py). Beside them: the table's definition
(schema.py) and life (table.py), the items and their mapping to records (items.py,
history_items.py, small_items.py), conditional writes and their retries (writes.py), errors
(errors.py). An observer hears every call (observer.py): none in production; with a meter, what
each call would cost, per key of the table and of each index (api/storage/metering/).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pynamodb.expressions.operand import Path
from pynamodb.expressions.update import Action

from api.config import Settings
from api.storage import keys
from api.storage.dynamodb.connection import Table
from api.storage.dynamodb.errors import STORE_ERRORS, botocore_response, translate, translated
from api.storage.dynamodb.history import DynamoHistory
from api.storage.dynamodb.items import (
    GroupItem,
    LobbyItem,
    PlayerItem,
    TournamentItem,
    group_record,
    lobby_record,
    player_record,
    tournament_record,
)
from api.storage.dynamodb.observer import NO_OBSERVER, Observer
from api.storage.dynamodb.queries import IndexQueries
from api.storage.dynamodb.schema import MAX_BATCH_GET, MAX_TRANSACTION_ITEMS
from api.storage.dynamodb.small_items import (
    clock_attributes,
    clock_copy_request,
    clock_landed,
    clock_record,
    clock_request,
    count_request,
    counts,
    probe_item,
    probe_request,
    rebuild_request,
)
from api.storage.dynamodb.table import create_if_missing, ensure_ttl, wait_active
from api.storage.dynamodb.writes import (
    KINDS,
    Op,
    due_actions,
    landed,
    new_write_id,
    operation,
    written_by,
)
from api.storage.forwarding import ForwardsHistory
from api.storage.records import (
    ClockRecord,
    GroupRecord,
    LobbyRecord,
    PlayerRecord,
    TournamentRecord,
)
from api.storage.repository import LOBBIES_PER_BAND, Conflict, Repository, Unavailable, Write

if TYPE_CHECKING:
    from api.storage.metering.meter import Meter

COUNT_ATTEMPTS = 4  # a counter rebuilt by others under every attempt gives up (Unavailable)


class DynamoRepository(ForwardsHistory, Repository):
    def __init__(
        self,
        settings: Settings,
        meter: Meter | None = None,
        *,
        connect_timeout: float = 1.0,
        read_timeout: float = 3.0,
        max_retry_attempts: int = 2,
        max_pool_connections: int | None = None,
        botocore_session: Any = None,
    ) -> None:
        """`settings.dynamodb_endpoint` is PynamoDB's `host` (None: AWS itself).

        `meter`: what each call would cost (the benchmarks, the load test); None, in
        production: nothing is metered, and nothing kept for it.
        The timeouts and retries default short: a Lambda behind a 30 s API Gateway limit is
        better off answering 503 with Retry-After than waiting out botocore's 60 s defaults.
        A retried write that had landed counts as done (api/storage/dynamodb/writes.py).
        `max_pool_connections`: botocore's connections (PynamoDB's default, 10, unless given).
        `botocore_session`: one to share (its loaded service model makes a client ~50x quicker
        to create: tests make a repository per table); the client is then made at once.
        """
        self.settings = settings
        self.table_name = settings.table_name
        self.layout = settings.layout
        self.meter = meter
        observer: Observer = NO_OBSERVER
        if meter is not None:
            from api.storage.metering.dynamodb import DynamoMeter

            observer = DynamoMeter(meter, self.layout)
        self._table = Table(
            settings,
            observer,
            connect_timeout=connect_timeout,
            read_timeout=read_timeout,
            max_retry_attempts=max_retry_attempts,
            max_pool_connections=max_pool_connections,
        )
        self._conn = self._table.conn
        self._observer = observer
        self._queries = IndexQueries(self._table, self.layout)
        self._history = DynamoHistory(self._table)
        if botocore_session is not None:
            # PynamoDB keeps a session per thread; this thread's is the one that makes the client.
            self._conn.connection._local.session = botocore_session
            _ = self.client

    @property
    def client(self) -> Any:
        """The botocore client (tests register event handlers on it)."""
        return self._conn.connection.client

    def describe(self) -> dict[str, str | None]:
        return {"store": self.settings.store, "table": self.table_name}

    def close(self) -> None:
        """Stop the threads that read shards in parallel (see IndexQueries.close)."""
        self._queries.close()

    # ------------------------------------------------------------------ reads

    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        pk = keys.key_of(PlayerRecord, player_id)
        item = self._table.get("get_player", pk, consistent)
        return None if item is None else player_record(PlayerItem.from_raw_data(item))

    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        pks = list(dict.fromkeys(keys.key_of(PlayerRecord, pid) for pid in player_ids))
        found: dict[str, PlayerRecord] = {}
        for start in range(0, len(pks), MAX_BATCH_GET):
            for item in self._table.batch_get(pks[start : start + MAX_BATCH_GET], "get_players"):
                record = player_record(PlayerItem.from_raw_data(item))
                found[record.id] = record
        return [found[pid] for pid in player_ids if pid in found]

    def idle_bots(self, rating: float, window: int, limit: int) -> list[PlayerRecord]:
        return self._queries.idle_bots(rating, window, limit)

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None:
        item = self._table.get("get_lobby", keys.key_of(LobbyRecord, lobby_id))
        return None if item is None else lobby_record(LobbyItem.from_raw_data(item))

    def get_tournament(
        self, tournament_id: str, *, consistent: bool = True
    ) -> TournamentRecord | None:
        pk = keys.key_of(TournamentRecord, tournament_id)
        item = self._table.get("get_tournament", pk, consistent)
        return None if item is None else tournament_record(TournamentItem.from_raw_data(item))

    def get_group(self, group_id: str) -> GroupRecord | None:
        item = self._table.get("get_group", keys.key_of(GroupRecord, group_id))
        return None if item is None else group_record(GroupItem.from_raw_data(item))

    def open_lobbies(
        self,
        language: str,
        rating: float,
        window: int,
        limit: int = LOBBIES_PER_BAND,
        shards: Sequence[int] | None = None,
    ) -> list[LobbyRecord]:
        return self._queries.open_lobbies(language, rating, window, limit, shards)

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        return self._queries.due_tournaments(now, limit)

    def due_lobbies(self, now: int, limit: int) -> list[str]:
        return self._queries.due_lobbies(now, limit)

    # ------------------------------------------------------------------ small updates

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        pk = keys.key_of(TournamentRecord, tournament_id)
        stamp = Path([TournamentItem.contacts.attr_name, player_id])  # the player's stamp
        # Idempotent as it is: a retry of a stamp that landed fails `stamp < now`, harmlessly.
        condition = TournamentItem.key.exists() & (stamp.does_not_exist() | (stamp < now))
        applied = self._table.update(pk, [stamp.set(now)], condition)
        self._observer.touched("touch", pk, applied=applied)  # `c` is in no index

    def touch_player(self, player_id: str, now: int) -> None:
        pk = keys.key_of(PlayerRecord, player_id)
        # Idempotent like touch(); a versioned Put of the player writes the stamp it read.
        last = PlayerItem.last_contact
        condition = PlayerItem.key.exists() & (last.does_not_exist() | (last < now))
        applied = self._table.update(pk, [last.set(now)], condition)
        self._observer.touched_player(pk, applied=applied)

    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        pk = keys.key_of(LobbyRecord, lobby_id)
        stamp = Path([LobbyItem.contacts.attr_name, player_id])
        # Only while it waits for players; idempotent like touch().
        condition = (
            LobbyItem.contacts.exists()
            & LobbyItem.tournament_id.does_not_exist()
            & (stamp.does_not_exist() | (stamp < now))
        )
        applied = self._table.update(pk, [stamp.set(now)], condition)
        self._observer.touched_lobby(pk, now, applied=applied)

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        pk = keys.key_of(TournamentRecord, tournament_id)
        actions = due_actions(tournament_id, due, self.layout)
        condition = TournamentItem.version == version  # no version bump: a retry sets it again
        applied = self._table.update(pk, actions, condition)
        shard = self.layout.due_key(tournament_id)
        self._observer.rescheduled("reschedule", pk, shard, due, applied=applied)

    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        pk = keys.key_of(LobbyRecord, lobby_id)
        shard = self.layout.lobby_due_key(lobby_id)
        actions: list[Action]
        if due is None:
            actions = [LobbyItem.due_key.remove(), LobbyItem.due.remove()]
        else:
            actions = [LobbyItem.due_key.set(shard), LobbyItem.due.set(due)]
        # Only while it is open (listed in `fill`).
        condition = (LobbyItem.version == version) & LobbyItem.fill_key.exists()
        applied = self._table.update(pk, actions, condition)
        self._observer.rescheduled("reschedule_lobby", pk, shard, due, applied=applied)

    # ------------------------------------------------------------------ commit

    def commit(self, writes: Sequence[Write]) -> None:
        if not writes:
            return
        pks = [keys.record_key(w.record) for w in writes]
        if len(set(pks)) != len(pks):
            raise ValueError("a transaction touches each item once")
        if len(writes) > MAX_TRANSACTION_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_TRANSACTION_ITEMS} writes")
        write_id = new_write_id()
        ops = sorted(
            (operation(self._conn, w, write_id, self.layout) for w in writes),
            key=lambda op: KINDS.index(op.kind),
        )
        transactional = len(ops) > 1
        try:
            if transactional:
                self._transact(ops, write_id)
            else:
                self._conn.connection.dispatch(f"{ops[0].kind}Item", ops[0].kwargs)
        except STORE_ERRORS as exc:
            if not landed(exc, [op.kind for op in ops], write_id):
                # A failed condition is billed too (a cancelled transaction: assumed the same).
                self._observer.committed(ops, transactional=transactional, applied=False)
                raise translate(exc) from exc
        self._observer.committed(ops, transactional=transactional, applied=True)

    def _transact(self, ops: list[Op], write_id: str) -> None:
        """One TransactWriteItems, its items in the order of `ops` (sorted by KINDS)."""
        by_kind: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
        for op in ops:
            by_kind[op.kind].append(op.kwargs)
        self._conn.connection.transact_write_items(
            condition_check_items=[],
            delete_items=by_kind["Delete"],
            put_items=by_kind["Put"],
            update_items=by_kind["Update"],
            client_request_token=write_id,
        )

    # ------------------------------------------------------------------ history, leaderboards

    # get_stats … claim_refresh: ForwardsHistory (api/storage/forwarding.py)

    # ------------------------------------------------------------------ counters, heartbeat

    def count(self, key: str, window: int, window_ms: int, add: int) -> tuple[int, int]:
        """One UpdateItem, no read; a counter idle too long is rebuilt by a conditional PutItem
        from the item the failed update returned (api/storage/dynamodb/small_items.py)."""
        pk = keys.counter_key(key)
        for _ in range(COUNT_ATTEMPTS):
            write_id = new_write_id()
            request = count_request(self._conn, key, window, window_ms, add, write_id)
            try:
                with translated():
                    reply = self._conn.connection.dispatch("UpdateItem", request)
                item: dict[str, Any] = reply.get("Attributes", {})
                self._observer.wrote("count", pk, item)
                return counts(item, window)
            except Conflict as conflict:
                old = botocore_response(conflict).get("Item") or {}
                self._observer.wrote("count", pk, old)  # a failed condition is billed too
                if written_by(old, write_id):
                    return counts(old, window)  # our own earlier attempt: the item it left
            put, item = rebuild_request(self._conn, key, old, window, window_ms, add, write_id)
            self._observer.wrote("count", pk, item)
            try:
                with translated():
                    self._conn.connection.dispatch("PutItem", put)
                return counts(item, window)
            except Conflict as conflict:  # counted meanwhile, or our own put retried
                if written_by(botocore_response(conflict).get("Item"), write_id):
                    return counts(item, window)
        raise Unavailable(f"counter {key} changed under every attempt to count")

    def get_clock(self, *, consistent: bool = False, copy: int | None = None) -> ClockRecord | None:
        key = keys.CLOCK if copy is None else keys.clock_copy_key(copy)
        item = self._table.get("get_clock", key, consistent)
        return None if item is None else clock_record(item)

    def put_clock_copy(self, copy: int, clock: ClockRecord) -> None:
        key = keys.clock_copy_key(copy)
        attrs = clock_attributes(clock, key)
        self._observer.wrote("put_clock", key, attrs)  # billed, whatever the answer
        try:
            with translated():
                self._conn.connection.dispatch(
                    "PutItem", clock_copy_request(self._conn, key, attrs)
                )
        except Conflict:
            pass  # the copy holds a beat as recent (another reader's, or ours retried)

    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        attrs = clock_attributes(new)
        self._observer.wrote("put_clock", keys.CLOCK, attrs)  # billed, whatever the answer
        try:
            with translated():
                self._conn.connection.dispatch(
                    "PutItem", clock_request(self._conn, expected, attrs)
                )
        except Conflict as conflict:  # someone else's beat, or our own retried one
            return clock_landed(botocore_response(conflict).get("Item"), attrs)
        return True

    def ping(self) -> None:
        """A GetItem of a key that never exists: the cheapest data-plane call (0.5 unit)."""
        self._table.get("ping", keys.PING, consistent=False)

    def probe(self, now: int) -> None:
        """An UpdateItem of the health item, about 30 bytes: one write unit."""
        request = probe_request(self._conn, now)
        with translated():
            self._conn.connection.dispatch("UpdateItem", request)
        self._observer.wrote("probe", keys.HEALTH, probe_item(now))

    # ------------------------------------------------------------------ the table's life

    def create_table(self, *, timeout: float = 60.0) -> bool:
        """See the module's `create_table`."""
        with translated():
            created = create_if_missing(self._conn)
            wait_active(self._conn, timeout)
            ensure_ttl(self._conn)
        return created

    def delete_table(self) -> None:
        """Drop the table and everything in it (tests, local runs)."""
        with translated():
            self._conn.delete_table()


def create_table(settings: Settings, *, timeout: float = 60.0) -> bool:
    """Create the table if it does not exist, wait until it is active, make sure TTL is on.

    Returns True if this call created it.
    """
    return DynamoRepository(settings).create_table(timeout=timeout)
