"""The in-memory fake's global secondary indexes (`fill`, `due`, `history`, `active`), kept by
partition key as DynamoDB keeps them (the same keys: api/storage/keys.py, api/storage/layout.py),
and as far behind the table as the fake's `index_lag_ms`.

Every write of a lobby or tournament is queued with its time; a query first applies the writes
older than the lag, so it sees each item as it was `index_lag_ms` ago (or not yet, or still
after it was deleted). Reads stay proportional to the partitions read, not to the table.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from api.storage import keys
from api.storage.layout import Layout
from api.storage.records import (
    HistoryRecord,
    LobbyRecord,
    PlayerRecord,
    StatsRecord,
    TournamentRecord,
)
from core.fairplay.record import OK
from core.leaderboard import indexed

Key = tuple[type, str]


def placed(record: Any, layout: Layout) -> list[tuple[str, str]]:
    """The (index, partition key) pairs where an item of `record` has an entry."""
    if isinstance(record, TournamentRecord):
        return [] if record.due is None else [(keys.DUE_INDEX, layout.due_key(record.id))]
    if isinstance(record, LobbyRecord) and record.open:
        where = [(keys.OPEN_INDEX, layout.lobby_fill_key(record.lobby))]
        if record.due is not None:
            where.append((keys.DUE_INDEX, layout.lobby_due_key(record.id)))
        return where
    if isinstance(record, HistoryRecord):
        return [(keys.HISTORY_INDEX, record.player_id)]
    if isinstance(record, PlayerRecord):  # D18: idle house bots, for reuse
        if not record.idle_house_bot:
            return []
        return [(keys.OPEN_INDEX, keys.idle_key(keys.rating_band(record.rating)))]
    if isinstance(record, StatsRecord):
        # The players who finished a tournament, bots and those fair play holds aside; and
        # those whose fair-play status is not ok, for operators (D19).
        where = []
        if indexed(record.stats, record.fairplay):
            where.append((keys.ACTIVE_INDEX, keys.active_shard(record.player_id)))
        if record.fairplay is not None and record.fairplay.status != OK:
            where.append((keys.HISTORY_INDEX, keys.REVIEW))
        return where
    return []


class IndexView:
    """The indexes' partitions as a query sees them. The caller holds the repository's lock."""

    def __init__(self, layout: Layout, lag_ms: int) -> None:
        self.layout = layout
        self.lag_ms = lag_ms
        self._pending: deque[tuple[int, Key, Any]] = deque()
        self._partitions: dict[tuple[str, str], dict[str, Any]] = {}
        self._where: dict[Key, list[tuple[str, str]]] = {}

    def written(self, key: Key, record: Any, now: int) -> None:
        """An item of `key` became `record` (None: deleted) at `now`."""
        if self.lag_ms <= 0:
            self._apply(key, record)
        else:
            self._pending.append((now, key, record))

    def partition(self, index: str, key: str, now: int) -> list[Any]:
        """The entries of one partition as visible at `now`."""
        self._catch_up(now)
        return list(self._partitions.get((index, key), {}).values())

    def _catch_up(self, now: int) -> None:
        cutoff = now - self.lag_ms
        while self._pending and self._pending[0][0] <= cutoff:
            _, key, record = self._pending.popleft()
            self._apply(key, record)

    def _apply(self, key: Key, record: Any) -> None:
        for spot in self._where.pop(key, []):
            members = self._partitions.get(spot)
            if members is not None:
                members.pop(key[1], None)
                if not members:
                    del self._partitions[spot]
        if record is None:
            return
        spots = placed(record, self.layout)
        for spot in spots:
            self._partitions.setdefault(spot, {})[key[1]] = record
        if spots:
            self._where[key] = spots
