"""Index queries on DynamoDB: the open lobbies of a few fill partitions and the due items of
every deadline shard, each partition's pages in its own thread (at most QUERY_THREADS at once),
so that a sweep over 128 shards or a join over five bands waits for about one round trip.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from api.storage import keys
from api.storage.dynamodb.connection import Raw, Table
from api.storage.dynamodb.items import (
    LobbyItem,
    PlayerItem,
    TournamentItem,
    lobby_record,
    player_record,
)
from api.storage.layout import Layout
from api.storage.records import LobbyRecord, PlayerRecord
from api.storage.repository import LOBBIES_PER_BAND, due_page_limit

QUERY_THREADS = 16  # index queries of one call (shards, bands) in flight at once


class IndexQueries:
    def __init__(self, table: Table, layout: Layout) -> None:
        self._table = table
        self.layout = layout
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        self._closed = False

    def _queries(
        self, operation: str, index: str, partitions: list[str], **options: Any
    ) -> list[list[Raw]]:
        """Several partitions' queries, at most QUERY_THREADS at once, in their order."""
        query = self._table.query
        if len(partitions) <= 1:
            return [query(operation, index, p, **options) for p in partitions]
        pool = self._query_pool()

        def task(partition: str) -> Callable[[], list[Raw]]:
            # In a copy of this context: the meter's scopes (one request's units) follow.
            context = contextvars.copy_context()
            return lambda: context.run(query, operation, index, partition, **options)

        futures = [pool.submit(task(p)) for p in partitions]
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
            for band in keys.rating_bands(rating, window)
            for key in self.layout.fill_keys(language, band, shards)
        ]
        pages = self._queries("open_lobbies", keys.OPEN_INDEX, partitions, limit=limit)
        lobbies = [lobby_record(LobbyItem.from_raw_data(i)) for page in pages for i in page]
        return [
            lb
            for lb in lobbies
            if lb.open and lb.lobby.language == language and abs(lb.lobby.rating - rating) <= window
        ]

    def idle_bots(self, rating: float, window: int, limit: int) -> list[PlayerRecord]:
        """Each side of `rating` (keys.idle_ranges) read in order, nearest first, until it has
        `limit` bots: one query, or two where it crosses a band."""
        found: list[PlayerRecord] = []
        for side, forward in zip(keys.idle_ranges(rating, window), (True, False), strict=True):
            taken = 0
            for band, low, high in side:
                if taken >= limit:
                    break
                condition = PlayerItem.fill_sort.between(
                    keys.idle_sort_key(low), keys.idle_sort_key(high)
                )
                page = self._table.query(
                    "idle_bots",
                    keys.OPEN_INDEX,
                    keys.idle_key(band),
                    condition=condition,
                    limit=limit - taken,
                    forward=forward,
                )
                bots = [player_record(PlayerItem.from_raw_data(i)) for i in page]
                found += [b for b in bots if b.idle_house_bot]
                taken += len(page)
        return sorted(found, key=lambda b: (abs(b.rating - rating), b.id))

    def _due(
        self, operation: str, prefix: str, partitions: list[str], now: int, limit: int
    ) -> list[str]:
        if limit <= 0:
            return []
        condition = TournamentItem.due <= now
        per_shard = due_page_limit(limit, len(partitions))
        pages = self._queries(
            operation, keys.DUE_INDEX, partitions, condition=condition, limit=per_shard
        )
        deadline, key = TournamentItem.due.attr_name, TournamentItem.key.attr_name
        due = [
            (int(item[deadline]["N"]), keys.without(prefix, item[key]["S"]))
            for page in pages
            for item in page  # KEYS_ONLY: the item's key, its shard and its deadline
        ]
        return [item_id for _, item_id in sorted(due)[:limit]]

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        return self._due("due_tournaments", keys.TOURNAMENT, self.layout.due_keys(), now, limit)

    def due_lobbies(self, now: int, limit: int) -> list[str]:
        return self._due("due_lobbies", keys.LOBBY, self.layout.lobby_due_keys(), now, limit)
