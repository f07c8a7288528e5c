"""Players' history and statistics in the in-memory fake, who played lately, and leaderboard
snapshots. Part of InMemoryRepository (api/storage/memory/repository.py), which provides the
items, the lagging indexes and the meter; metered as the DynamoDB adapter's calls are
(api/storage/dynamodb/history.py).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from api.storage.dynamodb.history_items import (
    COPIES,
    REFRESH_KEY,
    STATS_PREFIX,
    board_attributes,
    board_key,
    part_attributes,
    part_key,
)
from api.storage.dynamodb.table import ACTIVE_INDEX, ACTIVE_SHARDS, HISTORY_INDEX, active_key
from api.storage.memory.index import IndexView
from api.storage.metering.images import ItemImages
from api.storage.metering.meter import item_size
from api.storage.records import HistoryRecord, StatsRecord
from core.leaderboard import Board, Entry


class MemoryResults:
    """The players' records part of the fake; InMemoryRepository provides these."""

    _lock: threading.Lock
    _items: dict[tuple[type, str], Any]
    _index: IndexView
    _clock: Callable[[], int]
    _images: ItemImages | None
    _boards: dict[str, Board]
    _parts: dict[int, dict[str, Board]]
    _refreshed: int | None

    def _query(self, operation: str, index: str, key: str, found: list[Any]) -> None:
        raise NotImplementedError

    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        with self._lock:
            found = [self._items.get((StatsRecord, pid)) for pid in player_ids]
        if self._images is not None and player_ids:
            unique = dict(zip(player_ids, found, strict=True))
            self._images.get_many("get_stats", ((STATS_PREFIX + k, v) for k, v in unique.items()))
        return [s for s in found if s is not None]

    def history(
        self, player_id: str, limit: int, after: tuple[int, str] | None = None
    ) -> list[HistoryRecord]:
        def position(r: HistoryRecord) -> tuple[int, str]:
            return r.result.finished_at, r.result.tournament_id

        with self._lock:
            lines = list(self._index.partition(HISTORY_INDEX, player_id, self._clock()))
        lines.sort(key=position, reverse=True)
        if after is not None:
            lines = [r for r in lines if position(r) < after]
        page = lines[:limit]
        self._query("history", HISTORY_INDEX, player_id, page)
        return page

    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        parts = range(ACTIVE_SHARDS) if part is None else [part]
        for shard in parts:
            key = active_key(shard)
            with self._lock:
                listed = self._index.partition(ACTIVE_INDEX, key, self._clock())
            page = [r for r in listed if (r.stats.last_played or 0) >= since]
            self._query("active_players", ACTIVE_INDEX, key, page)
            for r in page:
                s = r.stats
                yield Entry(r.player_id, s.nickname, s.rating, s.last_played, dict(s.languages))

    def get_board(self, name: str) -> Board | None:
        with self._lock:
            found = self._boards.get(name)
        if self._images is not None:
            copy = random.randrange(COPIES)  # as the adapter: one copy at random
            size = 0 if found is None else item_size(board_attributes(found, copy))
            self._images.small("get_board", board_key(name, copy), size, consistent=False)
        return found

    def save_board(self, board: Board) -> None:
        with self._lock:
            stored = self._boards.get(board.name)
            if stored is None or stored.renewed_at < board.renewed_at:
                self._boards[board.name] = board
        if self._images is not None:
            for copy in range(COPIES):
                attrs = board_attributes(board, copy)
                self._images.counted("save_board", attrs["pk"]["S"], item_size(attrs))

    def get_parts(self) -> dict[int, dict[str, Board]]:
        with self._lock:
            parts = {part: dict(boards) for part, boards in self._parts.items()}
        if self._images is not None:
            for part in range(ACTIVE_SHARDS):
                boards = parts.get(part)
                size = 0 if boards is None else item_size(part_attributes(part, boards))
                self._images.small("get_parts", part_key(part), size)
        return parts

    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        with self._lock:
            stored = self._parts.get(part)
            at = max((b.renewed_at for b in boards.values()), default=0)
            if stored is None or max(b.renewed_at for b in stored.values()) < at:
                self._parts[part] = dict(boards)
        if self._images is not None:
            attrs = part_attributes(part, boards)
            self._images.counted("save_part", attrs["pk"]["S"], item_size(attrs))

    def claim_refresh(self, now: int, every_ms: int) -> bool:
        with self._lock:
            claimed = self._refreshed is None or self._refreshed <= now - every_ms
            if claimed:
                self._refreshed = now
        if self._images is not None:
            self._images.counted("claim_refresh", REFRESH_KEY, 40)
        return claimed
