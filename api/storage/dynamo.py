"""The repository on one DynamoDB table, through PynamoDB's TableConnection.

The table and its indexes: api/storage/table.py. The items and their mapping to records:
api/storage/items.py. Conditional writes and their retries: api/storage/writes.py. Rate-limit
counters and storage's heartbeat: api/storage/small_items.py. Players' records (history,
statistics, leaderboards): api/storage/dynamo_results.py. What each call would cost is metered
from item sizes (api/storage/meter.py).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.connection.base import MetaTable
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.operand import Path
from pynamodb.expressions.update import Action

from api.config import Settings
from api.storage.dynamo_errors import STORE_ERRORS, botocore_response, translate, translated
from api.storage.dynamo_results import ResultsStore
from api.storage.items import (
    GroupItem,
    LobbyItem,
    PlayerItem,
    TournamentItem,
    group_record,
    lobby_record,
    player_record,
    record_key,
    tournament_record,
)
from api.storage.meter import Meter, item_size, read_units, write_units
from api.storage.records import (
    ClockRecord,
    GroupRecord,
    LobbyRecord,
    PlayerRecord,
    TournamentRecord,
)
from api.storage.repository import LOBBIES_PER_BAND, Conflict, Repository, Unavailable, Write
from api.storage.small_items import (
    CLOCK_KEY,
    clock_attributes,
    clock_landed,
    clock_record,
    clock_request,
    count_request,
    counts,
)
from api.storage.table import (
    DUE_INDEX,
    DUE_SHARDS,
    LOBBY_DUE_SHARDS,
    MAX_BATCH_GET,
    MAX_TRANSACTION_ITEMS,
    OPEN_INDEX,
    create_if_missing,
    ensure_ttl,
    lobby_due_shard,
    open_key,
    rating_bands,
    table_definition,
    wait_active,
)
from api.storage.writes import (
    ALL_OLD,
    KINDS,
    Op,
    SizeCache,
    due_actions,
    landed,
    new_write_id,
    op_write_units,
    operation,
    written_by,
)

PLAYER_ITEM_BYTES = 300  # about a player item's size, to meter touch_player (one write unit)


class DynamoRepository(ResultsStore, Repository):
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

        The timeouts and retries default short: a Lambda behind a 30 s API Gateway limit is
        better off answering 503 with Retry-After than waiting out botocore's 60 s defaults.
        A retried write that had landed counts as done (api/storage/writes.py).
        `max_pool_connections`: botocore's connections (PynamoDB's default, 10, unless given).
        `botocore_session`: one to share (its loaded service model makes a client ~50x quicker
        to create: tests make a repository per table); the client is then made at once.
        """
        self.settings = settings
        self.table_name = settings.table_name
        self.meter = meter if meter is not None else Meter()
        self._conn = TableConnection(
            settings.table_name,
            region=settings.region,
            host=settings.dynamodb_endpoint,
            connect_timeout_seconds=connect_timeout,
            read_timeout_seconds=read_timeout,
            max_retry_attempts=max_retry_attempts,
            max_pool_connections=max_pool_connections,
            meta_table=MetaTable(table_definition(settings.table_name)),
        )
        self._sizes = SizeCache()
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

    # ------------------------------------------------------------------ reads

    def _get(self, operation: str, pk: str, consistent: bool = True) -> dict[str, Any] | None:
        with translated():
            data = self._conn.get_item(pk, consistent_read=consistent)
        item: dict[str, Any] | None = data.get("Item")
        size = 0 if item is None else item_size(item)
        self.meter.record(operation, read=read_units(size, consistent=consistent))
        return item

    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        item = self._get("get_player", "P#" + player_id, consistent)
        return None if item is None else player_record(PlayerItem.from_raw_data(item))

    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        keys = list(dict.fromkeys("P#" + pid for pid in player_ids))
        found: dict[str, PlayerRecord] = {}
        for start in range(0, len(keys), MAX_BATCH_GET):
            for item in self._batch_get(keys[start : start + MAX_BATCH_GET]):
                record = player_record(PlayerItem.from_raw_data(item))
                found[record.id] = record
        return [found[pid] for pid in player_ids if pid in found]

    def _batch_get(self, pks: list[str], operation: str = "get_players") -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        pending: list[Any] = [{"pk": pk} for pk in pks]
        for attempt in range(8):
            if not pending:
                break
            if attempt:
                time.sleep(min(0.05 * 2**attempt, 1.0))
            with translated():
                data = self._conn.batch_get_item(pending, consistent_read=True)
            got = data.get("Responses", {}).get(self.table_name, [])
            asked = len(pending)
            pending = data.get("UnprocessedKeys", {}).get(self.table_name, {}).get("Keys", [])
            misses = asked - len(got) - len(pending)  # a key that is not there costs the minimum
            units = sum(read_units(item_size(i)) for i in got) + misses * read_units(0)
            self.meter.record(operation, read=units)
            items += got
        if pending:
            raise Unavailable("DynamoDB left keys unprocessed (throttling)")
        return items

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None:
        pk = "L#" + lobby_id
        item = self._get("get_lobby", pk)
        if item is None:
            return None
        self._sizes.put(pk, item_size(item))
        return lobby_record(LobbyItem.from_raw_data(item))

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        pk = "T#" + tournament_id
        item = self._get("get_tournament", pk)
        if item is None:
            return None
        self._sizes.put(pk, item_size(item))
        return tournament_record(TournamentItem.from_raw_data(item))

    def get_group(self, group_id: str) -> GroupRecord | None:
        item = self._get("get_group", "G#" + group_id)
        return None if item is None else group_record(GroupItem.from_raw_data(item))

    def _query(
        self,
        operation: str,
        index: str,
        partition: str,
        condition: Condition | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """All items of one index partition (up to `limit`), following pages."""
        items: list[dict[str, Any]] = []
        start: Any = None
        while True:
            with translated():
                data = self._conn.query(
                    partition,
                    range_key_condition=condition,
                    index_name=index,
                    exclusive_start_key=start,
                    limit=None if limit is None else limit - len(items),
                )
            page: list[dict[str, Any]] = data.get("Items", [])
            items += page
            size = sum(item_size(i) for i in page)
            self.meter.record(operation, read=read_units(size, consistent=False))
            start = data.get("LastEvaluatedKey")
            if not start or (limit is not None and len(items) >= limit):
                return items

    def open_lobbies(
        self, language: str, rating: float, window: int, limit: int = LOBBIES_PER_BAND
    ) -> list[LobbyRecord]:
        lobbies: list[LobbyRecord] = []
        for band in rating_bands(rating, window):
            partition = open_key(language, band)
            for item in self._query("open_lobbies", OPEN_INDEX, partition, limit=limit):
                lobbies.append(lobby_record(LobbyItem.from_raw_data(item)))
        return [
            lb
            for lb in lobbies
            if lb.open and lb.lobby.language == language and abs(lb.lobby.rating - rating) <= window
        ]

    def _due(self, operation: str, prefix: str, shards: int, now: int, limit: int) -> list[str]:
        if limit <= 0:
            return []
        due: list[tuple[int, str]] = []
        for shard in range(shards):
            partition = f"{prefix}#{shard}"
            items = self._query(operation, DUE_INDEX, partition, TournamentItem.dd <= now, limit)
            due += [(int(i["dd"]["N"]), i["pk"]["S"][2:]) for i in items]
        return [item_id for _, item_id in sorted(due)[:limit]]

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        return self._due("due_tournaments", "D", DUE_SHARDS, now, limit)

    def due_lobbies(self, now: int, limit: int) -> list[str]:
        return self._due("due_lobbies", "DL", LOBBY_DUE_SHARDS, now, limit)

    # ------------------------------------------------------------------ small updates

    def _update(
        self,
        operation: str,
        pk: str,
        actions: list[Action],
        condition: Condition,
        size: int,
        index_units: float = 0.0,
        write_id: str | None = None,
    ) -> bool:
        """An UpdateItem whose failed condition is not an error: False then (True if the
        condition failed on our own write, with `write_id`, applied by an earlier attempt).

        Billed on the whole item (`size`), even when the condition fails; `index_units` only
        when it is applied.
        """
        try:
            kwargs = self._conn.get_operation_kwargs(pk, actions=actions, condition=condition)
            with translated():
                self._conn.connection.dispatch("UpdateItem", kwargs | ALL_OLD)
            applied = True
        except Conflict as conflict:
            applied = write_id is not None and landed(conflict, ["Update"], write_id)
        units = write_units(size) + (index_units if applied else 0.0)
        self.meter.record(operation, write=units)
        return applied

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        pk = "T#" + tournament_id
        stamp = Path(["c", player_id])  # the player's entry in the contact map
        # Idempotent as it is: a retry of a stamp that landed fails `stamp < now`, harmlessly.
        condition = TournamentItem.pk.exists() & (stamp.does_not_exist() | (stamp < now))
        # The size is the last one this process saw (the item is not read): an estimate.
        self._update("touch", pk, [stamp.set(now)], condition, self._sizes.get(pk, 0))

    def get_clock(self, *, consistent: bool = False) -> ClockRecord | None:
        item = self._get("get_clock", CLOCK_KEY, consistent)
        return None if item is None else clock_record(item)

    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        attrs = clock_attributes(new)
        self.meter.record("put_clock", write=write_units(item_size(attrs)))
        try:
            with translated():
                self._conn.connection.dispatch(
                    "PutItem", clock_request(self._conn, expected, attrs)
                )
        except Conflict as conflict:  # someone else's beat, or our own retried one
            return clock_landed(botocore_response(conflict).get("Item"), attrs)
        return True

    def touch_player(self, player_id: str, now: int) -> None:
        pk = "P#" + player_id
        # Idempotent like touch(); a versioned Put of the player writes the stamp it read.
        condition = PlayerItem.pk.exists() & (
            PlayerItem.lc.does_not_exist() | (PlayerItem.lc < now)
        )
        self._update("touch_player", pk, [PlayerItem.lc.set(now)], condition, PLAYER_ITEM_BYTES)

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        pk = "T#" + tournament_id
        actions = due_actions(tournament_id, due)
        condition = TournamentItem.v == version  # no version bump: a retry sets the same again
        self._update("reschedule", pk, actions, condition, self._sizes.get(pk, 0), 1.0)

    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        pk = "L#" + lobby_id
        stamp = Path(["c", player_id])
        # Only while it waits for players; idempotent like touch().
        condition = (
            LobbyItem.c.exists()
            & LobbyItem.ti.does_not_exist()
            & (stamp.does_not_exist() | (stamp < now))
        )
        size = self._sizes.get(pk, 0)
        self._update("touch_lobby", pk, [stamp.set(now)], condition, size, write_units(size))

    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        pk = "L#" + lobby_id
        actions: list[Action]
        if due is None:
            actions = [LobbyItem.dk.remove(), LobbyItem.dd.remove()]
        else:
            actions = [LobbyItem.dk.set(lobby_due_shard(lobby_id)), LobbyItem.dd.set(due)]
        condition = (LobbyItem.v == version) & LobbyItem.ok.exists()  # only while it is open
        self._update("reschedule_lobby", pk, actions, condition, self._sizes.get(pk, 0), 1.0)

    # ------------------------------------------------------------------ commit

    def commit(self, writes: Sequence[Write]) -> None:
        if not writes:
            return
        pks = [record_key(w.record) for w in writes]
        if len(set(pks)) != len(pks):
            raise ValueError("a transaction touches each item once")
        if len(writes) > MAX_TRANSACTION_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_TRANSACTION_ITEMS} writes")
        write_id = new_write_id()
        ops = sorted(
            (operation(self._conn, self._sizes, w, write_id) for w in writes),
            key=lambda op: KINDS.index(op.kind),
        )
        transactional = len(ops) > 1
        try:
            if transactional:
                self._transact(ops, write_id)
            else:
                self._conn.connection.dispatch(f"{ops[0].kind}Item", ops[0].kwargs)
        except STORE_ERRORS as exc:
            # A failed condition is billed too (a cancelled transaction: assumed the same).
            self.meter.record("commit", write=op_write_units(ops, transactional, index=False))
            if not landed(exc, [op.kind for op in ops], write_id):
                raise translate(exc) from exc
        self.meter.record("commit", write=op_write_units(ops, transactional, index=True))
        for op in ops:
            if op.pk.startswith(("T#", "L#")):
                if op.kind == "Delete":
                    self._sizes.drop(op.pk)
                else:
                    self._sizes.put(op.pk, op.size)

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

    # ------------------------------------------------------------------ rate limits, health

    def count(self, key: str, window: int, window_ms: int, add: int) -> tuple[int, int]:
        """One UpdateItem, no read (api/storage/small_items.py)."""
        write_id = new_write_id()
        request = count_request(self._conn, key, window, window_ms, add, write_id)
        try:
            with translated():
                item: dict[str, Any] = self._conn.connection.dispatch("UpdateItem", request).get(
                    "Attributes", {}
                )
        except Conflict as conflict:
            old = botocore_response(conflict).get("Item")
            if not written_by(old, write_id):
                raise
            item = old or {}  # our own earlier attempt: the item as it left it
        self.meter.record("count", write=write_units(item_size(item)))
        return counts(item, window)

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

    def ping(self) -> None:
        """A GetItem of a key that never exists: the cheapest data-plane call (0.5 unit)."""
        with translated():
            self._conn.get_item("X#ping", consistent_read=False)
        self.meter.record("ping", read=read_units(0, consistent=False))


def create_table(settings: Settings, *, timeout: float = 60.0) -> bool:
    """Create the table if it does not exist, wait until it is active, make sure TTL is on.

    Returns True if this call created it.
    """
    return DynamoRepository(settings).create_table(timeout=timeout)
