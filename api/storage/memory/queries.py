"""The in-memory fake's index queries: matchmaking's open lobbies and idle house bots (`fill`),
and the tournaments and lobbies whose deadline is due (`due`), read as the lagging indexes show
them (index.py): the fake's counterpart of api/storage/dynamodb/queries.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from api.storage import keys
from api.storage.memory.state import MemoryState, item_key
from api.storage.records import LobbyRecord, PlayerRecord
from api.storage.repository import LOBBIES_PER_BAND, due_page_limit


class MemoryQueries(MemoryState):
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

    def _observe_query(self, operation: str, index: str, key: str, found: list[Any]) -> None:
        """Tell the observer of one index query that returned `found` (the lock is not held)."""
        if self._observer is None:
            return
        with self._lock:
            pages = [(record, dict(self._stamps(item_key(record)))) for record in found]
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
