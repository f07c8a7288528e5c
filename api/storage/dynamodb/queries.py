"""Index queries on DynamoDB: the open lobbies of a few fill partitions and the due items of
every deadline shard, each partition's pages in its own thread (at most QUERY_THREADS at once),
so that a sweep over 128 shards or a join over five bands waits for about one round trip. Part
of DynamoRepository (api/storage/dynamodb/repository.py), which provides the connection, the
layout and the meter.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.expressions.condition import Condition

from api.storage.dynamodb.errors import translated
from api.storage.dynamodb.items import LobbyItem, TournamentItem, lobby_record
from api.storage.dynamodb.table import DUE_INDEX, OPEN_INDEX, due_page_limit, rating_bands
from api.storage.layout import Layout
from api.storage.metering.meter import Meter, item_size
from api.storage.metering.traffic import query_touch
from api.storage.records import LobbyRecord
from api.storage.repository import LOBBIES_PER_BAND

QUERY_THREADS = 16  # index queries of one call (shards, bands) in flight at once


class IndexQueries:
    """The index queries of the repository; DynamoRepository provides these."""

    _conn: TableConnection
    meter: Meter
    layout: Layout
    _pool: ThreadPoolExecutor | None
    _pool_lock: threading.Lock
    _closed: bool

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
            touch = query_touch(index, partition, (item_size(i) for i in page))
            self.meter.touch(operation, [touch])
            start = data.get("LastEvaluatedKey")
            if not start or (limit is not None and len(items) >= limit):
                return items

    def _queries(
        self, operation: str, index: str, partitions: list[str], **options: Any
    ) -> list[list[dict[str, Any]]]:
        """`_query` of several partitions, at most QUERY_THREADS at once, in their order."""
        if len(partitions) <= 1:
            return [self._query(operation, index, p, **options) for p in partitions]
        pool = self._query_pool()
        # Each in a copy of this context: the meter's scopes (one request's units) follow.
        futures = [
            pool.submit(contextvars.copy_context().run, self._query, operation, index, p, **options)
            for p in partitions
        ]
        return [f.result() for f in futures]

    def close(self) -> None:
        """Stop the threads that read shards in parallel (their queries left undone are
        cancelled); the interpreter waits for them at exit otherwise."""
        with self._pool_lock:
            pool, self._pool = self._pool, None
            self._closed = True
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def _query_pool(self) -> ThreadPoolExecutor:
        with self._pool_lock:
            if self._closed:
                raise RuntimeError("the repository is closed")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(QUERY_THREADS, thread_name_prefix="query")
            return self._pool

    def open_lobbies(
        self,
        language: str,
        rating: float,
        window: int,
        limit: int = LOBBIES_PER_BAND,
        shards: Sequence[int] | None = None,
    ) -> list[LobbyRecord]:
        partitions = [
            key
            for band in rating_bands(rating, window)
            for key in self.layout.fill_keys(language, band, shards)
        ]
        pages = self._queries("open_lobbies", OPEN_INDEX, partitions, limit=limit)
        lobbies = [lobby_record(LobbyItem.from_raw_data(i)) for page in pages for i in page]
        return [
            lb
            for lb in lobbies
            if lb.open and lb.lobby.language == language and abs(lb.lobby.rating - rating) <= window
        ]

    def _due(self, operation: str, partitions: list[str], now: int, limit: int) -> list[str]:
        if limit <= 0:
            return []
        condition = TournamentItem.dd <= now
        per_shard = due_page_limit(limit, len(partitions))
        pages = self._queries(
            operation, DUE_INDEX, partitions, condition=condition, limit=per_shard
        )
        due = [(int(i["dd"]["N"]), i["pk"]["S"][2:]) for page in pages for i in page]
        return [item_id for _, item_id in sorted(due)[:limit]]

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        return self._due("due_tournaments", self.layout.due_keys(), now, limit)

    def due_lobbies(self, now: int, limit: int) -> list[str]:
        return self._due("due_lobbies", self.layout.lobby_due_keys(), now, limit)
