"""The fake's table: its records by (type, id), under one lock, and its lagging indexes."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from api.storage.layout import Layout
from api.storage.memory.index import IndexView
from api.storage.records import (
    HistoryRecord,
    LobbyRecord,
    PlayerRecord,
    StatsRecord,
    TournamentRecord,
)

Key = tuple[type, str]
INDEXED = (LobbyRecord, TournamentRecord, HistoryRecord, StatsRecord, PlayerRecord)


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class Items:
    def __init__(self, layout: Layout, index_lag_ms: int, clock: Callable[[], int] | None) -> None:
        self.lock = threading.Lock()
        self.records: dict[Key, Any] = {}
        self.clock = clock or _wall_clock_ms
        self._index = IndexView(layout, index_lag_ms)

    def set(self, key: Key, value: Any) -> None:
        """Store (or, with None, delete) an item; the caller holds the lock."""
        if value is None:
            self.records.pop(key, None)
        else:
            self.records[key] = value
        if key[0] in INDEXED:
            self._index.written(key, value, self.clock())

    def partition(self, index: str, key: str) -> list[Any]:
        """The entries of one index partition as a query sees them now; the caller holds the
        lock."""
        return self._index.partition(index, key, self.clock())
