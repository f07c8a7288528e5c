"""Players' history and statistics on DynamoDB, who played lately, and leaderboard snapshots;
the items are in api/storage/dynamodb/history_items.py.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pynamodb.expressions.update import Action

from api.storage import keys
from api.storage.dynamodb.connection import Raw, Table
from api.storage.dynamodb.errors import STORE_ERRORS, translate, translated
from api.storage.dynamodb.history_items import (
    COPIES,
    HistoryItem,
    SnapshotItem,
    StatsItem,
    active_entry,
    board_attributes,
    board_from,
    history_record,
    part_attributes,
    part_from,
    stats_record,
)
from api.storage.dynamodb.schema import MAX_BATCH_GET
from api.storage.dynamodb.writes import new_write_id
from api.storage.metering.billing import item_size, read_units
from api.storage.records import HistoryRecord, StatsRecord
from api.storage.repository import Conflict
from core.leaderboard import Board, Entry

ACTIVE_READ_UNITS_PER_S = 1_000.0  # the refresh's pace on one `active` partition (a third)


def pace_wait(used: float, elapsed_s: float, per_s: float) -> float:
    """Seconds to wait before the next page so that `used` units over the time so far stay
    at most `per_s` a second."""
    return max(0.0, used / per_s - elapsed_s)


class DynamoHistory:
    def __init__(self, table: Table) -> None:
        self._table = table

    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        pks = list(dict.fromkeys(keys.key_of(StatsRecord, pid) for pid in player_ids))
        found: dict[str, StatsRecord] = {}
        for start in range(0, len(pks), MAX_BATCH_GET):
            for item in self._table.batch_get(pks[start : start + MAX_BATCH_GET], "get_stats"):
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
                HistoryItem.key.attr_name: {"S": f"{keys.HISTORY}{player_id}#{tournament_id}"},
                HistoryItem.player_id.attr_name: {"S": player_id},
                HistoryItem.position.attr_name: {
                    "S": keys.history_sort_key(finished_at, tournament_id)
                },
            }
        with translated():
            data = self._table.conn.query(
                player_id,
                index_name=keys.HISTORY_INDEX,
                exclusive_start_key=start,
                scan_index_forward=False,
                limit=limit,
            )
        items: list[Raw] = data.get("Items", [])
        self._table.observer.query("history", keys.HISTORY_INDEX, player_id, items)
        return [history_record(HistoryItem.from_raw_data(i)) for i in items]

    def fair_play_reviews(self) -> Iterator[StatsRecord]:
        """D19: the partition keys.REVIEW of the history index, page by page (the whole
        statistics items, projected ALL), oldest status first."""
        start: Any = None
        while True:
            with translated():
                data = self._table.conn.query(
                    keys.REVIEW, index_name=keys.HISTORY_INDEX, exclusive_start_key=start
                )
            page: list[Raw] = data.get("Items", [])
            self._table.observer.query("fair_play_reviews", keys.HISTORY_INDEX, keys.REVIEW, page)
            for item in page:
                yield stats_record(StatsItem.from_raw_data(item))
            start = data.get("LastEvaluatedKey")
            if not start:
                break

    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        """One shard of the `active` index (or every one) from `since` on, page by page, at
        most ACTIVE_READ_UNITS_PER_S: a part of a million active players is several pages of
        1 MB (128 read units each), which back to back would take one index partition to its
        limit (3,000 a second), so the refresh waits between pages instead."""
        shards = range(keys.ACTIVE_SHARDS) if part is None else [part]
        for partition in (key for shard in shards for key in keys.active_keys(shard)):
            start: Any = None
            began, used = time.monotonic(), 0.0
            while True:
                time.sleep(pace_wait(used, time.monotonic() - began, ACTIVE_READ_UNITS_PER_S))
                with translated():
                    data = self._table.conn.query(
                        partition,
                        range_key_condition=StatsItem.last_played >= since,
                        index_name=keys.ACTIVE_INDEX,
                        exclusive_start_key=start,
                    )
                page: list[Raw] = data.get("Items", [])
                self._table.observer.query("active_players", keys.ACTIVE_INDEX, partition, page)
                used += read_units(sum(item_size(i) for i in page), consistent=False)
                for item in page:
                    yield active_entry(item)
                start = data.get("LastEvaluatedKey")
                if not start:
                    break

    def get_board(self, name: str) -> Board | None:
        """An eventually consistent read of one of the snapshot's copies, at random."""
        item = self._table.get("get_board", keys.board_key(name, random.randrange(COPIES)), False)
        return None if item is None else board_from(item)

    def save_board(self, board: Board) -> None:
        """Each copy only over an older snapshot: a failed condition means a newer one (or
        this very one, whose reply was lost) is there, which is as good."""
        for copy in range(COPIES):
            self._put_if_newer("save_board", board_attributes(board, copy))

    def get_parts(self) -> dict[int, dict[str, Board]]:
        pks = [keys.part_key(part) for part in range(keys.ACTIVE_SHARDS)]
        return dict(part_from(item) for item in self._table.batch_get(pks, "get_parts"))

    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        """Only over an older part (a failed condition: a newer one, or this one retried)."""
        self._put_if_newer("save_part", part_attributes(part, boards))

    def _put_if_newer(self, operation: str, attrs: Raw) -> None:
        snapshot = SnapshotItem.from_raw_data(attrs)
        newer = SnapshotItem.key.does_not_exist() | (snapshot.renewed_at > SnapshotItem.renewed_at)
        kwargs = self._table.conn.get_operation_kwargs(
            snapshot.key, key="Item", attributes=attrs, condition=newer
        )
        try:
            self._table.conn.connection.dispatch("PutItem", kwargs)
        except STORE_ERRORS as exc:
            error = translate(exc)
            if not isinstance(error, Conflict):
                raise error from exc
        self._table.observer.wrote(operation, snapshot.key, attrs)  # replaces one as large

    def claim_refresh(self, now: int, every_ms: int) -> bool:
        write_id = new_write_id()
        claim = SnapshotItem.renewed_at
        actions: list[Action] = [claim.set(now), SnapshotItem.write_id.set(write_id)]
        condition = claim.does_not_exist() | (claim <= now - every_ms)
        applied = self._table.update(keys.REFRESH, actions, condition, write_id=write_id)
        self._table.observer.claimed(keys.REFRESH, now, write_id, applied=applied)
        return applied
