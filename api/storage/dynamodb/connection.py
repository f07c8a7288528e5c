"""The one table's connection and the calls every part of the adapter makes through it: a read
by key, a batch of reads, an update whose failed condition is an answer, an index query that
follows its pages. Each call is reported to the observer (api/storage/dynamodb/observer.py).
"""

from __future__ import annotations

import time
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.connection.base import MetaTable
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.update import Action

from api.config import Settings
from api.storage.dynamodb.errors import translated
from api.storage.dynamodb.observer import Observer
from api.storage.dynamodb.schema import table_definition
from api.storage.dynamodb.writes import ALL_OLD, landed
from api.storage.repository import Conflict, Unavailable

Raw = dict[str, Any]


class Table:
    def __init__(
        self,
        settings: Settings,
        observer: Observer,
        *,
        connect_timeout: float,
        read_timeout: float,
        max_retry_attempts: int,
        max_pool_connections: int | None,
    ) -> None:
        self.name = settings.table_name
        self.observer = observer
        self.conn = TableConnection(
            settings.table_name,
            region=settings.region,
            host=settings.dynamodb_endpoint,
            connect_timeout_seconds=connect_timeout,
            read_timeout_seconds=read_timeout,
            max_retry_attempts=max_retry_attempts,
            max_pool_connections=max_pool_connections,
            meta_table=MetaTable(table_definition(settings.table_name)),
        )

    def get(self, operation: str, pk: str, consistent: bool = True) -> Raw | None:
        with translated():
            data = self.conn.get_item(pk, consistent_read=consistent)
        item: Raw | None = data.get("Item")
        self.observer.read(operation, pk, item, consistent=consistent)
        return item

    def batch_get(self, pks: list[str], operation: str) -> list[Raw]:
        """The items of `pks` that exist (at most MAX_BATCH_GET keys), strongly consistent;
        keys left unprocessed (throttling) are asked again, a few times."""
        items: list[Raw] = []
        pending = pks
        for attempt in range(8):
            if not pending:
                break
            if attempt:
                time.sleep(min(0.05 * 2**attempt, 1.0))
            # PynamoDB annotates the keys as strings but reads each as an item's key attributes.
            keys: Any = [{"pk": pk} for pk in pending]
            with translated():
                data = self.conn.batch_get_item(keys, consistent_read=True)
            got: list[Raw] = data.get("Responses", {}).get(self.name, [])
            unprocessed = data.get("UnprocessedKeys", {}).get(self.name, {}).get("Keys", [])
            left = [k["pk"]["S"] for k in unprocessed]
            found = {i["pk"]["S"] for i in got}
            missing = [pk for pk in pending if pk not in found and pk not in left]
            self.observer.read_many(operation, got, missing)
            items += got
            pending = left
        if pending:
            raise Unavailable("DynamoDB left keys unprocessed (throttling)")
        return items

    def update(
        self, pk: str, actions: list[Action], condition: Condition, write_id: str | None = None
    ) -> bool:
        """An UpdateItem whose failed condition is not an error: False then (True if the
        condition failed on our own write, with `write_id`, applied by an earlier attempt)."""
        try:
            kwargs = self.conn.get_operation_kwargs(pk, actions=actions, condition=condition)
            with translated():
                self.conn.connection.dispatch("UpdateItem", kwargs | ALL_OLD)
            return True
        except Conflict as conflict:
            return write_id is not None and landed(conflict, ["Update"], write_id)

    def query(
        self,
        operation: str,
        index: str,
        partition: str,
        condition: Condition | None = None,
        limit: int | None = None,
        forward: bool = True,
    ) -> list[Raw]:
        """All items of one index partition (up to `limit`), following pages; `forward`: in
        the sort key's order (else the reverse)."""
        items: list[Raw] = []
        start: Any = None
        while True:
            with translated():
                data = self.conn.query(
                    partition,
                    range_key_condition=condition,
                    index_name=index,
                    exclusive_start_key=start,
                    limit=None if limit is None else limit - len(items),
                    scan_index_forward=forward,
                )
            page: list[Raw] = data.get("Items", [])
            items += page
            self.observer.query(operation, index, partition, page)
            start = data.get("LastEvaluatedKey")
            if not start or (limit is not None and len(items) >= limit):
                return items
