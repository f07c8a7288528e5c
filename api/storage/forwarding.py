"""What both engines' repositories hand to their history part unchanged (the players' history
and statistics, and the leaderboards' snapshots): written once here, not once per engine."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Protocol

from api.storage.records import HistoryRecord, StatsRecord
from api.storage.repository import History, Leaderboards
from core.leaderboard import Board, Entry


class HistoryPart(History, Leaderboards, Protocol):
    """An engine's history part (memory.history.MemoryHistory, dynamodb.history.DynamoHistory)."""


class ForwardsHistory:
    """The `History` and `Leaderboards` methods of a repository whose `_history` holds them."""

    _history: HistoryPart

    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        return self._history.get_stats(player_ids)

    def history(
        self, player_id: str, limit: int, after: tuple[int, str] | None = None
    ) -> list[HistoryRecord]:
        return self._history.history(player_id, limit, after)

    def fair_play_reviews(self) -> Iterator[StatsRecord]:
        return self._history.fair_play_reviews()

    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        return self._history.active_players(since, part)

    def get_board(self, name: str) -> Board | None:
        return self._history.get_board(name)

    def save_board(self, board: Board) -> None:
        self._history.save_board(board)

    def get_parts(self) -> dict[int, dict[str, Board]]:
        return self._history.get_parts()

    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        self._history.save_part(part, boards)

    def claim_refresh(self, now: int, every_ms: int) -> bool:
        return self._history.claim_refresh(now, every_ms)
