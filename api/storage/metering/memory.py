"""The capacity meter as the in-memory fake's observer (api/storage/memory/observer.py): what
its calls would cost on DynamoDB, per key. Its records become the very items and index entries
the DynamoDB adapter would store (api/storage/dynamodb/items.py), billed by DynamoDB's rules
(api/storage/metering/traffic.py), so that a simulation on the fake (`bench scale`) meters what
the table and its indexes would carry.
"""

from __future__ import annotations

import itertools
import random
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from api.storage import keys
from api.storage.dynamodb.history_items import COPIES, board_attributes, part_attributes
from api.storage.dynamodb.items import to_item
from api.storage.dynamodb.small_items import clock_attributes
from api.storage.layout import Layout
from api.storage.memory.observer import Image
from api.storage.metering.billing import item_size, value_size
from api.storage.metering.meter import Meter
from api.storage.metering.traffic import (
    TABLE,
    Entry,
    Touch,
    entries,
    query_touch,
    read_touch,
    unknown_entry,
    write_touches,
)
from api.storage.records import ClockRecord, LobbyRecord, Record, TournamentRecord
from core.leaderboard import Board

Entries = dict[str, Entry]
WRITE_ID = "w" * 12  # a write id's length: the adapter stores one in every item it writes
EMPTY_MAP = value_size({"M": {}})
COUNTER_BYTES = 60  # about a rate-limit counter item's size
REFRESH_BYTES = 40  # about the refresh claim's


class ItemImages:
    """Items and entries of the fake's records, packed once per version. Thread-safe."""

    def __init__(self, layout: Layout, capacity: int = 50_000) -> None:
        self.layout = layout
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, int, int | None], Entries] = {}
        self._capacity = capacity

    def _base(self, record: Record) -> Entries:
        """The entries of the record's item with an empty contact map, once per version (and
        deadline: a reschedule moves it without a version bump)."""
        pk = keys.record_key(record)
        due = getattr(record, "due", None)
        with self._lock:
            found = self._cache.get((pk, record.version, due))
        if found is None:
            attrs = to_item(record, record.version, {}, WRITE_ID, self.layout).serialize()
            found = entries(attrs)
            # An entry's projection stands for the item's version and deadline: cheap to compare.
            found = {
                name: e
                if name != TABLE and len(e.projected) < len(attrs)
                else replace(e, projected={"v": {"N": f"{pk}:{record.version}:{due}"}})
                for name, e in found.items()
            }
            with self._lock:
                if len(self._cache) >= self._capacity:
                    # The oldest tenth goes (insertion order): a large queue run's working set
                    # comes near the capacity, and clearing it all made every image anew.
                    for old in list(itertools.islice(self._cache, self._capacity // 10)):
                        del self._cache[old]
                self._cache[pk, record.version, due] = found
        return found

    def entries(self, record: Record | None, contacts: Mapping[str, int] | None = None) -> Entries:
        """The entries of the record's item, with `contacts` in its contact map `c` (projected
        wherever the whole item is)."""
        if record is None:
            return {}
        base = self._base(record)
        if not contacts or not isinstance(record, (TournamentRecord, LobbyRecord)):
            return base
        stamps = {pid: {"N": str(at)} for pid, at in contacts.items()}
        grown = value_size({"M": stamps}) - EMPTY_MAP
        marker = {"N": ",".join(f"{p}={a}" for p, a in sorted(contacts.items()))}
        return {
            name: replace(e, size=e.size + grown, projected={**e.projected, "c": marker})
            if "v" in e.projected
            else e
            for name, e in base.items()
        }


class FakeMeter:
    def __init__(self, meter: Meter, layout: Layout) -> None:
        self.meter = meter
        self._images = ItemImages(layout)

    def _entries(self, image: Image) -> Entries:
        record, stamps = image
        return self._images.entries(record, stamps)

    def _write(
        self, operation: str, changes: Sequence[tuple[Entries, Entries]], *, applied: bool = True
    ) -> None:
        """One call that turned items with entries `before` into `after` (a transaction when
        there are several)."""
        transactional = len(changes) > 1
        touches: list[Touch] = []
        for before, after in changes:
            touches += write_touches(before, after, transactional=transactional, applied=applied)
        self.meter.touch(operation, touches)

    def _small_read(self, operation: str, key: str, size: int, *, consistent: bool = True) -> None:
        """A read of a small item the fake keeps apart (the heartbeat, a snapshot)."""
        self.meter.touch(operation, [read_touch(key, size, consistent=consistent)])

    def _small_write(self, operation: str, key: str, size: int) -> None:
        """A write of a small item the fake keeps apart (a counter, the heartbeat)."""
        after = {TABLE: Entry(key, None, size, {})}
        self.meter.touch(operation, write_touches({}, after))

    # ------------------------------------------------------------------ the records

    def read(
        self,
        operation: str,
        pk: str,
        record: Record | None,
        stamps: Mapping[str, int],
        *,
        consistent: bool = True,
    ) -> None:
        entry = self._images.entries(record, stamps or None).get(TABLE)
        touch = read_touch(pk, 0 if entry is None else entry.size, consistent=consistent)
        self.meter.touch(operation, [touch])

    def read_many(self, operation: str, found: Iterable[tuple[str, Record | None]]) -> None:
        touches = []
        for pk, record in found:
            entry = self._images.entries(record).get(TABLE)
            touches.append(read_touch(pk, 0 if entry is None else entry.size))
        self.meter.touch(operation, touches)

    def query(
        self,
        operation: str,
        index: str,
        partition: str,
        found: Sequence[tuple[Record, Mapping[str, int]]],
    ) -> None:
        sizes = []
        for record, stamps in found:
            entry = self._images.entries(record, stamps).get(index)
            sizes.append(0 if entry is None else entry.size)
        self.meter.touch(operation, [query_touch(index, partition, sizes)])

    def updated(
        self, operation: str, pk: str, before: Image, after: Image, *, applied: bool
    ) -> None:
        old, new = self._entries(before), self._entries(after)
        if not old:  # no item: the condition failed on nothing, billed the minimum
            old = {TABLE: unknown_entry(pk)}
        self._write(operation, [(old, new or old)], applied=applied)

    def committed(self, changes: Sequence[tuple[Image, Image]], *, applied: bool) -> None:
        """A failed commit is billed as the adapter's: each item as the write would have left
        it, no index."""
        pairs = [(self._entries(old), self._entries(new)) for old, new in changes]
        self._write("commit", pairs, applied=applied)

    # ------------------------------------------------------------------ the small items

    def counted(self, subject: str) -> None:
        self._small_write("count", keys.counter_key(subject), COUNTER_BYTES)

    def read_clock(
        self, clock: ClockRecord | None, *, consistent: bool, key: str = keys.CLOCK
    ) -> None:
        self._small_read("get_clock", key, _clock_size(clock), consistent=consistent)

    def wrote_clock(self, clock: ClockRecord, key: str = keys.CLOCK) -> None:
        self._small_write("put_clock", key, _clock_size(clock))

    def read_board(self, name: str, board: Board | None) -> None:
        copy = random.randrange(COPIES)  # as the adapter: one copy at random
        size = 0 if board is None else item_size(board_attributes(board, copy))
        self._small_read("get_board", keys.board_key(name, copy), size, consistent=False)

    def wrote_board(self, board: Board) -> None:
        for copy in range(COPIES):
            attrs = board_attributes(board, copy)
            self._small_write("save_board", keys.board_key(board.name, copy), item_size(attrs))

    def read_parts(self, parts: Mapping[int, Mapping[str, Board]]) -> None:
        for part in range(keys.ACTIVE_SHARDS):
            boards = parts.get(part)
            size = 0 if boards is None else item_size(part_attributes(part, boards))
            self._small_read("get_parts", keys.part_key(part), size)

    def wrote_part(self, part: int, boards: Mapping[str, Board]) -> None:
        self._small_write(
            "save_part", keys.part_key(part), item_size(part_attributes(part, boards))
        )

    def claimed(self) -> None:
        self._small_write("claim_refresh", keys.REFRESH, REFRESH_BYTES)


def _clock_size(clock: ClockRecord | None) -> int:
    return 0 if clock is None else item_size(clock_attributes(clock))
