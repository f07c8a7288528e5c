"""What the in-memory fake's calls would cost on DynamoDB, per key: its records as the very
items and index entries the DynamoDB adapter would store (api/storage/dynamodb/items.py) and
DynamoDB's billing of them (api/storage/metering/traffic.py), so that a simulation on the fake
(`bench scale`) meters what the table and its indexes would carry.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from api.storage.dynamodb.items import record_key, to_item
from api.storage.layout import Layout
from api.storage.metering.meter import Meter, value_size
from api.storage.metering.traffic import (
    TABLE,
    Entry,
    Touch,
    entries,
    query_touch,
    read_touch,
    write_touches,
)
from api.storage.records import LobbyRecord, Record, TournamentRecord

Entries = dict[str, Entry]
WRITE_ID = "w" * 12  # a write id's length: the adapter stores one in every item it writes
EMPTY_MAP = value_size({"M": {}})


class ItemImages:
    """Items and entries of the fake's records, packed once per version. Thread-safe."""

    def __init__(self, meter: Meter, layout: Layout, capacity: int = 50_000) -> None:
        self.meter = meter
        self.layout = layout
        self._lock = threading.Lock()
        self._cache: dict[tuple[str, int, int | None], Entries] = {}
        self._capacity = capacity

    def _base(self, record: Record) -> Entries:
        """The entries of the record's item with an empty contact map, once per version (and
        deadline: a reschedule moves it without a version bump)."""
        pk = record_key(record)
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
                    self._cache.clear()  # a simulation's working set is far smaller
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

    # ------------------------------------------------------------------ calls

    def get(
        self,
        operation: str,
        pk: str,
        record: Record | None,
        contacts: Mapping[str, int] = {},
        *,
        consistent: bool = True,
    ) -> None:
        size = self.entries(record, contacts or None).get(TABLE)
        touch = read_touch(pk, 0 if size is None else size.size, consistent=consistent)
        self.meter.touch(operation, [touch])

    def get_many(self, operation: str, found: Iterable[tuple[str, Record | None]]) -> None:
        touches = []
        for pk, record in found:
            entry = self.entries(record).get(TABLE)
            touches.append(read_touch(pk, 0 if entry is None else entry.size))
        self.meter.touch(operation, touches)

    def query(self, operation: str, index: str, key: str, sizes: Iterable[int]) -> None:
        self.meter.touch(operation, [query_touch(index, key, sizes)])

    def write(
        self,
        operation: str,
        changes: Sequence[tuple[Entries, Entries]],
        *,
        applied: bool = True,
    ) -> None:
        """One call that turned items with entries `before` into `after` (a transaction when
        there are several)."""
        transactional = len(changes) > 1
        touches: list[Touch] = []
        for before, after in changes:
            touches += write_touches(before, after, transactional=transactional, applied=applied)
        self.meter.touch(operation, touches)

    def small(self, operation: str, key: str, size: int, *, consistent: bool = True) -> None:
        """A read of a small item the fake keeps apart (the heartbeat)."""
        self.meter.touch(operation, [read_touch(key, size, consistent=consistent)])

    def counted(self, operation: str, key: str, size: int) -> None:
        """A write of a small item the fake keeps apart (a rate-limit counter, the heartbeat)."""
        after = {TABLE: Entry(key, None, size, {})}
        self.meter.touch(operation, write_touches({}, after))
