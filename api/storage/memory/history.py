"""Players' history and statistics in the in-memory fake, who played lately, and leaderboard
snapshots: the fake's counterpart of api/storage/dynamodb/history.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from api.storage import keys
from api.storage.memory.items import Items
from api.storage.memory.observer import Observer
from api.storage.records import HistoryRecord, Record, StatsRecord
from core.leaderboard import Board, Entry


class MemoryHistory:
    def __init__(self, table: Items, observer: Observer | None) -> None:
        self._table = table
        self._lock = table.lock
        self._observer = observer
        self._boards: dict[str, Board] = {}
        self._parts: dict[int, dict[str, Board]] = {}
        self._refreshed: int | None = None

    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        with self._lock:
            found = [self._table.records.get((StatsRecord, pid)) for pid in player_ids]
        if self._observer is not None and player_ids:
            unique = dict(zip(player_ids, found, strict=True))
            pairs = ((keys.key_of(StatsRecord, k), v) for k, v in unique.items())
            self._observer.read_many("get_stats", pairs)
        return [s for s in found if s is not None]

    def history(
        self, player_id: str, limit: int, after: tuple[int, str] | None = None
    ) -> list[HistoryRecord]:
        def position(r: HistoryRecord) -> tuple[int, str]:
            return r.result.finished_at, r.result.tournament_id

        with self._lock:
            lines = list(self._table.partition(keys.HISTORY_INDEX, player_id))
        lines.sort(key=position, reverse=True)
        if after is not None:
            lines = [r for r in lines if position(r) < after]
        page = lines[:limit]
        if self._observer is not None:
            found: list[tuple[Record, Mapping[str, int]]] = [(r, {}) for r in page]
            self._observer.query("history", keys.HISTORY_INDEX, player_id, found)
        return page

    def fair_play_reviews(self) -> Iterator[StatsRecord]:
        with self._lock:
            listed = list(self._table.partition(keys.HISTORY_INDEX, keys.REVIEW))
        listed.sort(key=lambda r: keys.review_sort_key(r.fairplay.status_at, r.player_id))
        if self._observer is not None:
            found: list[tuple[Record, Mapping[str, int]]] = [(r, {}) for r in listed]
            self._observer.query("fair_play_reviews", keys.HISTORY_INDEX, keys.REVIEW, found)
        yield from listed

    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        parts = range(keys.ACTIVE_SHARDS) if part is None else [part]
        for key in (key for shard in parts for key in keys.active_keys(shard)):
            with self._lock:
                listed = self._table.partition(keys.ACTIVE_INDEX, key)
            page = [r for r in listed if (r.stats.last_played or 0) >= since]
            if self._observer is not None:
                found: list[tuple[Record, Mapping[str, int]]] = [(r, {}) for r in page]
                self._observer.query("active_players", keys.ACTIVE_INDEX, key, found)
            for r in page:
                s = r.stats
                yield Entry(r.player_id, s.nickname, s.rating, s.last_played, dict(s.languages))

    def get_board(self, name: str) -> Board | None:
        with self._lock:
            found = self._boards.get(name)
        if self._observer is not None:
            self._observer.read_board(name, found)
        return found

    def save_board(self, board: Board) -> None:
        with self._lock:
            stored = self._boards.get(board.name)
            if stored is None or stored.renewed_at < board.renewed_at:
                self._boards[board.name] = board
        if self._observer is not None:
            self._observer.wrote_board(board)

    def get_parts(self) -> dict[int, dict[str, Board]]:
        with self._lock:
            parts = {part: dict(boards) for part, boards in self._parts.items()}
        if self._observer is not None:
            self._observer.read_parts(parts)
        return parts

    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        with self._lock:
            stored = self._parts.get(part)
            at = max((b.renewed_at for b in boards.values()), default=0)
            if stored is None or max(b.renewed_at for b in stored.values()) < at:
                self._parts[part] = dict(boards)
        if self._observer is not None:
            self._observer.wrote_part(part, boards)

    def claim_refresh(self, now: int, every_ms: int) -> bool:
        with self._lock:
            claimed = self._refreshed is None or self._refreshed <= now - every_ms
            if claimed:
                self._refreshed = now
        if self._observer is not None:
            self._observer.claimed()
        return claimed
