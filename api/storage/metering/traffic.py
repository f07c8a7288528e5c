"""Where the capacity goes: units per partition key, of the table and of every index.

DynamoDB serves one partition key with at most 3,000 read units and 1,000 write units per second
(`PARTITION_READ_UNITS`, `PARTITION_WRITE_UNITS`), in the table and in each global secondary
index alike, and an index partition that cannot keep up throttles the writes of the table itself.
So the meter (api/storage/metering/meter.py) can count each call's units per key: `Touch`es,
computed here from the items as DynamoDB stores them (wire format), by both repositories (the
DynamoDB adapter and the in-memory fake), and summed per key and time bucket by a `KeyTally`.

How a write reaches an index (AWS's "Provisioned throughput considerations for GSIs"): an item
that enters an index costs one write of its index entry; one that leaves it, one write of the
entry it had; one whose index key (partition or sort) changes, both; one that stays with the same
keys, one write of the new entry if a projected attribute changed, none otherwise. The entry's
size is its projection: the table's and the index's key attributes for KEYS_ONLY, the whole item
for ALL. Index writes are never transactional (they follow the commit).
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from api.storage.dynamodb.schema import table_definition
from api.storage.metering.billing import item_size, read_units, write_units

TABLE = "table"  # the name of the table in a Touch (an index is named by its IndexName)
PARTITION_READ_UNITS = 3000.0
PARTITION_WRITE_UNITS = 1000.0

Attributes = Mapping[str, Any]  # an item in DynamoDB's wire format


@dataclass(frozen=True, slots=True)
class Touch:
    """Units one call used on one partition key of the table or of an index."""

    index: str  # TABLE or an IndexName
    key: str  # the partition key's value
    read: float = 0.0
    write: float = 0.0


@dataclass(frozen=True, slots=True)
class Entry:
    """An item's entry in the table or in one index."""

    key: str
    sort: Any
    size: int
    projected: Attributes


def unknown_entry(key: str) -> Entry:
    """An item's entry this process knows nothing of (metered at the minimum)."""
    return Entry(key, None, 0, {})


@dataclass(frozen=True, slots=True)
class _Index:
    name: str
    hash_key: str
    range_key: str | None
    keys_only: bool
    included: tuple[str, ...] | None  # INCLUDE's attributes (None: KEYS_ONLY or ALL)


@cache
def _indexes() -> tuple[str, tuple[_Index, ...]]:
    """The table's key attribute and its indexes, from the one table definition."""
    definition = table_definition("any")
    table_key = next(k["AttributeName"] for k in definition["KeySchema"] if k["KeyType"] == "HASH")
    found = []
    for gsi in definition.get("GlobalSecondaryIndexes", []):
        schema = {k["KeyType"]: k["AttributeName"] for k in gsi["KeySchema"]}
        projection = gsi["Projection"]
        kind = projection["ProjectionType"]
        included = tuple(projection.get("NonKeyAttributes", ())) if kind == "INCLUDE" else None
        found.append(
            _Index(
                gsi["IndexName"], schema["HASH"], schema.get("RANGE"), kind == "KEYS_ONLY", included
            )
        )
    return table_key, tuple(found)


def index_names() -> tuple[str, ...]:
    return tuple(index.name for index in _indexes()[1])


def projects_all(index: str) -> bool:
    """Whether an index's entries are the whole item (ProjectionType ALL)."""
    return any(i.name == index and not i.keys_only and i.included is None for i in _indexes()[1])


def _scalar(value: Mapping[str, Any]) -> Any:
    return next(iter(value.values()))


def entries(attrs: Attributes | None) -> dict[str, Entry]:
    """The item's entries: in the table, and in every index whose key attributes it carries."""
    if not attrs:
        return {}
    table_key, indexes = _indexes()
    found = {TABLE: Entry(_scalar(attrs[table_key]), None, item_size(attrs), attrs)}
    for index in indexes:
        keys = [index.hash_key] + ([index.range_key] if index.range_key else [])
        if any(k not in attrs for k in keys):
            continue  # sparse: not in this index
        if index.keys_only or index.included is not None:
            names = {table_key, *keys, *(index.included or ())}
            projected: Attributes = {n: attrs[n] for n in names if n in attrs}
        else:
            projected = attrs
        sort = _scalar(attrs[index.range_key]) if index.range_key else None
        found[index.name] = Entry(
            _scalar(attrs[index.hash_key]), sort, item_size(projected), projected
        )
    return found


def write_touches(
    old: Mapping[str, Entry],
    new: Mapping[str, Entry],
    *,
    transactional: bool = False,
    applied: bool = True,
) -> list[Touch]:
    """The units of one Put, Update or Delete that turns an item with entries `old` into one
    with entries `new` (`entries()`; empty: no item).

    The table's write is billed on the larger of the two images, whether or not its condition
    held; the indexes are written only when it was `applied`.
    """
    table = new.get(TABLE) or old.get(TABLE)
    if table is None:
        return []
    size = max(e.size for e in (old.get(TABLE), new.get(TABLE)) if e is not None)
    touches = [Touch(TABLE, table.key, write=write_units(size, transactional=transactional))]
    if not applied:
        return touches
    for name in index_names():
        was, now = old.get(name), new.get(name)
        if was is not None and now is not None and (was.key, was.sort) == (now.key, now.sort):
            if was.projected != now.projected:
                touches.append(Touch(name, now.key, write=write_units(now.size)))
            continue
        if was is not None:
            touches.append(Touch(name, was.key, write=write_units(was.size)))
        if now is not None:
            touches.append(Touch(name, now.key, write=write_units(now.size)))
    return touches


def read_touch(
    key: str, size: int, *, consistent: bool = True, transactional: bool = False
) -> Touch:
    """A GetItem (or one key of a BatchGetItem) of an item of `size` bytes (0: a miss)."""
    return Touch(
        TABLE, key, read=read_units(size, consistent=consistent, transactional=transactional)
    )


def query_touch(index: str, key: str, sizes: Iterable[int]) -> Touch:
    """One page of an (eventually consistent) index Query: the entries' total, rounded up."""
    return Touch(index, key, read=read_units(sum(sizes), consistent=False))


# ---------------------------------------------------------------------------- the tally


@dataclass(frozen=True, slots=True)
class KeyRate:
    """One key's load: units per second, and the share of its partition's limit."""

    index: str
    key: str
    read_units_per_s: float
    write_units_per_s: float

    @property
    def utilisation(self) -> float:
        """The larger of reads / 3,000 and writes / 1,000."""
        return max(
            self.read_units_per_s / PARTITION_READ_UNITS,
            self.write_units_per_s / PARTITION_WRITE_UNITS,
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.index,
            "key": self.key,
            "read_units_per_s": round(self.read_units_per_s, 3),
            "write_units_per_s": round(self.write_units_per_s, 3),
            "utilisation": round(self.utilisation, 4),
        }


class KeyTally:
    """Units per (table or index, key) in buckets of `bucket_ms` of `clock` time. Thread-safe."""

    def __init__(self, clock: Callable[[], int], bucket_ms: int = 10_000) -> None:
        self.clock = clock
        self.bucket_ms = bucket_ms
        self._lock = threading.Lock()
        self._units: dict[tuple[str, str], dict[int, list[float]]] = defaultdict(dict)

    def add(self, touches: Iterable[Touch]) -> None:
        bucket = self.clock() // self.bucket_ms
        with self._lock:
            for t in touches:
                cell = self._units[t.index, t.key].setdefault(bucket, [0.0, 0.0])
                cell[0] += t.read
                cell[1] += t.write

    def keys(self) -> list[tuple[str, str]]:
        with self._lock:
            return list(self._units)

    def totals(self, start_ms: int, end_ms: int) -> dict[tuple[str, str], tuple[float, float]]:
        """(read units, write units) per key in the buckets that start in [start_ms, end_ms)."""
        first, last = start_ms // self.bucket_ms, end_ms // self.bucket_ms
        out: dict[tuple[str, str], tuple[float, float]] = {}
        with self._lock:
            for key, buckets in self._units.items():
                r = w = 0.0
                for bucket, (br, bw) in buckets.items():
                    if first <= bucket < last:
                        r += br
                        w += bw
                if r or w:
                    out[key] = (r, w)
        return out

    def rates(self, start_ms: int, end_ms: int) -> list[KeyRate]:
        """Every key's mean load over [start_ms, end_ms), the most loaded first."""
        seconds = max(1e-9, (end_ms // self.bucket_ms - start_ms // self.bucket_ms))
        seconds *= self.bucket_ms / 1000
        found = [
            KeyRate(index, key, r / seconds, w / seconds)
            for (index, key), (r, w) in self.totals(start_ms, end_ms).items()
        ]
        return sorted(found, key=lambda k: -k.utilisation)

    def peaks(self, start_ms: int, end_ms: int) -> list[KeyRate]:
        """Every key's load in its busiest bucket (reads and writes each at their busiest)."""
        first, last = start_ms // self.bucket_ms, end_ms // self.bucket_ms
        seconds = self.bucket_ms / 1000
        found = []
        with self._lock:
            for (index, key), buckets in self._units.items():
                inside = [cell for b, cell in buckets.items() if first <= b < last]
                if inside:
                    r = max(c[0] for c in inside) / seconds
                    w = max(c[1] for c in inside) / seconds
                    found.append(KeyRate(index, key, r, w))
        return sorted(found, key=lambda k: -k.utilisation)
