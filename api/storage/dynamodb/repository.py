"""The repository on one DynamoDB table, through PynamoDB's TableConnection.

Beside it in api/storage/dynamodb/: the table and its indexes (table.py), the items and their
mapping to records (items.py), conditional writes and their retries (writes.py), rate-limit
counters and storage's heartbeat (small_items.py), players' history, statistics and leaderboards
(history.py), index queries, a thread per partition (queries.py). What each call would cost is
metered from item sizes, per key of the table and of each index (api/storage/metering/).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.connection.base import MetaTable
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.operand import Path
from pynamodb.expressions.update import Action

from api.config import Settings
from api.storage.dynamodb.errors import STORE_ERRORS, botocore_response, translate, translated
from api.storage.dynamodb.history import ResultsStore
from api.storage.dynamodb.items import (
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
from api.storage.dynamodb.queries import IndexQueries
from api.storage.dynamodb.small_items import (
    CLOCK_KEY,
    clock_attributes,
    clock_landed,
    clock_record,
    clock_request,
    count_request,
    counts,
)
from api.storage.dynamodb.table import (
    MAX_BATCH_GET,
    MAX_TRANSACTION_ITEMS,
    create_if_missing,
    ensure_ttl,
    table_definition,
    wait_active,
)
from api.storage.dynamodb.writes import (
    ALL_OLD,
    KINDS,
    Entries,
    ImageCache,
    Op,
    due_actions,
    due_moved,
    landed,
    new_write_id,
    op_touches,
    operation,
    restamped,
    written_by,
)
from api.storage.metering.meter import Meter, item_size, write_units
from api.storage.metering.traffic import (
    TABLE,
    Entry,
    Touch,
    entries,
    read_touch,
    unknown_entry,
    write_touches,
)
from api.storage.records import (
    ClockRecord,
    GroupRecord,
    LobbyRecord,
    PlayerRecord,
    TournamentRecord,
)
from api.storage.repository import Conflict, Repository, Unavailable, Write

PLAYER_ITEM_BYTES = 300  # about a player item's size, to meter touch_player (one write unit)


class DynamoRepository(IndexQueries, ResultsStore, Repository):
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
        A retried write that had landed counts as done (api/storage/dynamodb/writes.py).
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
        self.layout = settings.layout
        self._images = ImageCache()
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._closed = False
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
        self.meter.touch(operation, [read_touch(pk, size, consistent=consistent)])
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
        pending = pks
        for attempt in range(8):
            if not pending:
                break
            if attempt:
                time.sleep(min(0.05 * 2**attempt, 1.0))
            with translated():
                data = self._conn.batch_get_item(
                    [{"pk": pk} for pk in pending], consistent_read=True
                )
            got = data.get("Responses", {}).get(self.table_name, [])
            unprocessed = data.get("UnprocessedKeys", {}).get(self.table_name, {}).get("Keys", [])
            left = [k["pk"]["S"] for k in unprocessed]
            found = {i["pk"]["S"] for i in got}
            # A key that is not there costs the minimum.
            touches = [read_touch(i["pk"]["S"], item_size(i)) for i in got]
            for i in got:
                self._seen(i["pk"]["S"], i)
            touches += [read_touch(pk, 0) for pk in pending if pk not in found and pk not in left]
            self.meter.touch(operation, touches)
            items += got
            pending = left
        if pending:
            raise Unavailable("DynamoDB left keys unprocessed (throttling)")
        return items

    def _seen(self, pk: str, item: dict[str, Any]) -> None:
        """Keep an indexed item's entries: its next write replaces them (the meter's view)."""
        found = entries(item)
        if len(found) > 1 or pk[:2] in ("T#", "L#"):
            self._images.put(pk, found)

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None:
        pk = "L#" + lobby_id
        item = self._get("get_lobby", pk)
        if item is None:
            return None
        self._seen(pk, item)
        return lobby_record(LobbyItem.from_raw_data(item))

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        pk = "T#" + tournament_id
        item = self._get("get_tournament", pk)
        if item is None:
            return None
        self._seen(pk, item)
        return tournament_record(TournamentItem.from_raw_data(item))

    def get_group(self, group_id: str) -> GroupRecord | None:
        item = self._get("get_group", "G#" + group_id)
        return None if item is None else group_record(GroupItem.from_raw_data(item))

    # ------------------------------------------------------------------ small updates

    def _update(
        self,
        operation: str,
        pk: str,
        actions: list[Action],
        condition: Condition,
        after: Entries | None = None,
        write_id: str | None = None,
    ) -> bool:
        """An UpdateItem whose failed condition is not an error: False then (True if the
        condition failed on our own write, with `write_id`, applied by an earlier attempt).

        Metered from the item's entries as this process last saw them (the item is not read:
        an estimate) and as they are afterwards (`after`; None: the same, only the item
        changed); billed on the whole item even when the condition fails.
        """
        try:
            kwargs = self._conn.get_operation_kwargs(pk, actions=actions, condition=condition)
            with translated():
                self._conn.connection.dispatch("UpdateItem", kwargs | ALL_OLD)
            applied = True
        except Conflict as conflict:
            applied = write_id is not None and landed(conflict, ["Update"], write_id)
        before = self._images.get(pk) or {TABLE: unknown_entry(pk)}
        new = before if after is None else after
        self.meter.touch(operation, write_touches(before, new, applied=applied))
        if applied and after is not None and self._images.get(pk) is not None:
            self._images.put(pk, after)
        return applied

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        pk = "T#" + tournament_id
        stamp = Path(["c", player_id])  # the player's entry in the contact map
        # Idempotent as it is: a retry of a stamp that landed fails `stamp < now`, harmlessly.
        condition = TournamentItem.pk.exists() & (stamp.does_not_exist() | (stamp < now))
        self._update("touch", pk, [stamp.set(now)], condition)  # `c` is in no index

    def get_clock(self, *, consistent: bool = False) -> ClockRecord | None:
        item = self._get("get_clock", CLOCK_KEY, consistent)
        return None if item is None else clock_record(item)

    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        attrs = clock_attributes(new)
        self.meter.touch(
            "put_clock", [Touch(TABLE, CLOCK_KEY, write=write_units(item_size(attrs)))]
        )
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
        after = {TABLE: Entry(pk, None, PLAYER_ITEM_BYTES, {})}  # no index
        self._update("touch_player", pk, [PlayerItem.lc.set(now)], condition, after)

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        pk = "T#" + tournament_id
        actions = due_actions(tournament_id, due, self.layout)
        condition = TournamentItem.v == version  # no version bump: a retry sets the same again
        shard = self.layout.due_key(tournament_id)
        after = due_moved(self._images.get(pk), pk, shard, due)
        self._update("reschedule", pk, actions, condition, after)

    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        pk = "L#" + lobby_id
        stamp = Path(["c", player_id])
        # Only while it waits for players; idempotent like touch().
        condition = (
            LobbyItem.c.exists()
            & LobbyItem.ti.does_not_exist()
            & (stamp.does_not_exist() | (stamp < now))
        )
        # `c` is projected into the fill index (ALL): its entry is written again.
        after = restamped(self._images.get(pk), pk, now)
        self._update("touch_lobby", pk, [stamp.set(now)], condition, after)

    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        pk = "L#" + lobby_id
        actions: list[Action]
        shard = self.layout.lobby_due_key(lobby_id)
        if due is None:
            actions = [LobbyItem.dk.remove(), LobbyItem.dd.remove()]
        else:
            actions = [LobbyItem.dk.set(shard), LobbyItem.dd.set(due)]
        condition = (LobbyItem.v == version) & LobbyItem.ok.exists()  # only while it is open
        after = due_moved(self._images.get(pk), pk, shard, due)
        self._update("reschedule_lobby", pk, actions, condition, after)

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
            (operation(self._conn, self._images, w, write_id, self.layout) for w in writes),
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
            if not landed(exc, [op.kind for op in ops], write_id):
                failed = op_touches(ops, transactional, self.layout, applied=False)
                self.meter.touch("commit", failed)
                raise translate(exc) from exc
        self.meter.touch("commit", op_touches(ops, transactional, self.layout, applied=True))
        for op in ops:
            if op.kind == "Delete":
                self._images.drop(op.pk)
            elif len(op.after) > 1 or op.pk[:2] in ("T#", "L#"):
                self._images.put(op.pk, op.after)

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
        """One UpdateItem, no read (api/storage/dynamodb/small_items.py)."""
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
        units = write_units(item_size(item))
        self.meter.touch("count", [Touch(TABLE, "R#" + key, write=units)])
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
        self.meter.touch("ping", [read_touch("X#ping", 0, consistent=False)])


def create_table(settings: Settings, *, timeout: float = 60.0) -> bool:
    """Create the table if it does not exist, wait until it is active, make sure TTL is on.

    Returns True if this call created it.
    """
    return DynamoRepository(settings).create_table(timeout=timeout)
