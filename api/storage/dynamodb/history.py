"""Players' history and statistics on DynamoDB, who played lately, and leaderboard snapshots.
Part of DynamoRepository (api/storage/dynamodb/repository.py), which provides the connection,
the meter, batch reads and conditional updates; the items: api/storage/dynamodb/history_items.py.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.operand import Path
from pynamodb.expressions.update import Action

from api.storage.dynamodb.errors import STORE_ERRORS, translate, translated
from api.storage.dynamodb.history_items import (
    COPIES,
    HISTORY_PREFIX,
    REFRESH_KEY,
    STATS_PREFIX,
    HistoryItem,
    StatsItem,
    active_entry,
    board_attributes,
    board_from,
    board_key,
    history_record,
    part_attributes,
    part_from,
    part_key,
    stats_record,
)
from api.storage.dynamodb.table import (
    ACTIVE_INDEX,
    ACTIVE_SHARDS,
    HISTORY_INDEX,
    MAX_BATCH_GET,
    history_sort_key,
)
from api.storage.dynamodb.writes import new_write_id
from api.storage.metering.meter import Meter, item_size, write_units
from api.storage.metering.traffic import TABLE, Touch, query_touch, read_touch
from api.storage.metering.traffic import Entry as TrafficEntry
from api.storage.records import HistoryRecord, StatsRecord
from api.storage.repository import Conflict
from core.leaderboard import Board, Entry

ACTIVE_READ_UNITS_PER_S = 1_000.0  # the refresh's pace on one `active` partition (a third)


def pace_wait(used: float, elapsed_s: float, per_s: float) -> float:
    """Seconds to wait before the next page so that `used` units over the time so far stay
    at most `per_s` a second."""
    return max(0.0, used / per_s - elapsed_s)


class ResultsStore:
    """The players' records part of the repository; DynamoRepository provides these."""

    _conn: TableConnection
    meter: Meter

    def _batch_get(self, pks: list[str], operation: str = "get_players") -> list[dict[str, Any]]:
        raise NotImplementedError

    def _update(
        self,
        operation: str,
        pk: str,
        actions: list[Action],
        condition: Condition,
        after: dict[str, TrafficEntry] | None = None,
        write_id: str | None = None,
    ) -> bool:
        raise NotImplementedError

    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        keys = list(dict.fromkeys(STATS_PREFIX + pid for pid in player_ids))
        found: dict[str, StatsRecord] = {}
        for start in range(0, len(keys), MAX_BATCH_GET):
            for item in self._batch_get(keys[start : start + MAX_BATCH_GET], "get_stats"):
                record = stats_record(StatsItem.from_raw_data(item))
                found[record.player_id] = record
        return [found[pid] for pid in player_ids if pid in found]

    def history(
        self, player_id: str, limit: int, after: tuple[int, str] | None = None
    ) -> list[HistoryRecord]:
        """One Query of the history index, newest first, from the key the page before ended."""
        start = None
        if after is not None:
            finished_at, tournament_id = after
            start = {
                "pk": {"S": f"{HISTORY_PREFIX}{player_id}#{tournament_id}"},
                "hp": {"S": player_id},
                "hf": {"S": history_sort_key(finished_at, tournament_id)},
            }
        with translated():
            data = self._conn.query(
                player_id,
                index_name=HISTORY_INDEX,
                exclusive_start_key=start,
                scan_index_forward=False,
                limit=limit,
            )
        items: list[dict[str, Any]] = data.get("Items", [])
        touch = query_touch(HISTORY_INDEX, player_id, (item_size(i) for i in items))
        self.meter.touch("history", [touch])
        return [history_record(HistoryItem.from_raw_data(i)) for i in items]

    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        """One shard of the `active` index (or every one) from `since` on, page by page, at
        most ACTIVE_READ_UNITS_PER_S: a part of a million active players is several pages of
        1 MB (128 read units each), which back to back would take one index partition to its
        limit (3,000 a second), so the refresh waits between pages instead."""
        shards = range(ACTIVE_SHARDS) if part is None else [part]
        for shard in shards:
            start: Any = None
            began, used = time.monotonic(), 0.0
            while True:
                time.sleep(pace_wait(used, time.monotonic() - began, ACTIVE_READ_UNITS_PER_S))
                with translated():
                    data = self._conn.query(
                        f"A#{shard}",
                        range_key_condition=StatsItem.lp >= since,
                        index_name=ACTIVE_INDEX,
                        exclusive_start_key=start,
                    )
                page: list[dict[str, Any]] = data.get("Items", [])
                touch = query_touch(ACTIVE_INDEX, f"A#{shard}", (item_size(i) for i in page))
                self.meter.touch("active_players", [touch])
                used += touch.read
                for item in page:
                    yield active_entry(item)
                start = data.get("LastEvaluatedKey")
                if not start:
                    break

    def get_board(self, name: str) -> Board | None:
        """An eventually consistent read of one of the snapshot's copies, at random."""
        pk = board_key(name, random.randrange(COPIES))
        with translated():
            data = self._conn.get_item(pk, consistent_read=False)
        item: dict[str, Any] | None = data.get("Item")
        size = 0 if item is None else item_size(item)
        self.meter.touch("get_board", [read_touch(pk, size, consistent=False)])
        return None if item is None else board_from(item)

    def save_board(self, board: Board) -> None:
        """Each copy only over an older snapshot: a failed condition means a newer one (or
        this very one, whose reply was lost) is there, which is as good."""
        for copy in range(COPIES):
            self._put_if_newer("save_board", board_attributes(board, copy))

    def get_parts(self) -> dict[int, dict[str, Board]]:
        keys = [part_key(part) for part in range(ACTIVE_SHARDS)]
        return dict(part_from(item) for item in self._batch_get(keys, "get_parts"))

    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        """Only over an older part (a failed condition: a newer one, or this one retried)."""
        attrs = part_attributes(part, boards)
        self._put_if_newer("save_part", attrs)

    def _put_if_newer(self, operation: str, attrs: dict[str, Any]) -> None:
        at = int(attrs["at"]["N"])
        condition = Path("pk").does_not_exist() | (at > Path("at"))
        kwargs = self._conn.get_operation_kwargs(
            attrs["pk"]["S"], key="Item", attributes=attrs, condition=condition
        )
        try:
            self._conn.connection.dispatch("PutItem", kwargs)
        except STORE_ERRORS as exc:
            error = translate(exc)
            if not isinstance(error, Conflict):
                raise error from exc
        units = write_units(item_size(attrs))  # the item replaced is about as large
        self.meter.touch(operation, [Touch(TABLE, attrs["pk"]["S"], write=units)])

    def claim_refresh(self, now: int, every_ms: int) -> bool:
        write_id = new_write_id()
        actions: list[Action] = [Path("at").set(now), Path("w").set(write_id)]
        condition = Path("at").does_not_exist() | (Path("at") <= now - every_ms)
        size = item_size({"pk": {"S": REFRESH_KEY}, "at": {"N": str(now)}, "w": {"S": write_id}})
        after = {TABLE: TrafficEntry(REFRESH_KEY, None, size, {})}
        return self._update(
            "claim_refresh", REFRESH_KEY, actions, condition, after, write_id=write_id
        )
