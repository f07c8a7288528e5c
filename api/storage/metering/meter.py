"""What DynamoDB would bill for each storage call, computed from item sizes.

moto reports a fixed ConsumedCapacity whatever the size, so the adapter measures what it reads and
writes itself and reports it here. Billing rules (on-demand, as documented by AWS):

- read: per item, rounded up per 4 KB; 0.5 unit eventually consistent, 1 strongly consistent,
  2 transactional; a Query rounds the total of the items it read; a miss still costs the minimum.
- write: per item, rounded up per 1 KB; 2 units per KB in a transaction; an update is billed on
  the whole item, not on the attributes changed; a failed condition still costs the write.

Item size: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from api.storage.metering.traffic import KeyTally, Touch

READ_UNIT_BYTES = 4096
WRITE_UNIT_BYTES = 1024
# On-demand prices in us-east-1 after the November 2024 cut, per unit.
READ_UNIT_USD = 0.125 / 1_000_000
WRITE_UNIT_USD = 0.625 / 1_000_000

AttributeValue = Mapping[str, Any]  # DynamoDB's wire format: {"S": "..."}, {"N": "12"}, ...


def _number_size(text: str) -> int:
    """1 byte per two significant digits, plus 1."""
    try:
        significant = len(Decimal(text).normalize().as_tuple().digits)
    except InvalidOperation:
        significant = sum(c.isdigit() for c in text)
    significant = max(significant, 1)
    return math.ceil(significant / 2) + 1


def _binary_size(value: bytes | bytearray | str) -> int:
    # botocore hands bytes in and out; a base64 str only appears if someone pre-encoded it.
    if isinstance(value, str):
        return len(value) * 3 // 4 - value.count("=")
    return len(value)


def value_size(value: AttributeValue) -> int:
    """The size of one attribute value in DynamoDB's wire format, without its name."""
    kind, raw = next(iter(value.items()))
    if kind == "S":
        return len(raw.encode())
    if kind == "N":
        return _number_size(raw)
    if kind == "B":
        return _binary_size(raw)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "SS":
        return sum(len(s.encode()) for s in raw)
    if kind == "NS":
        return sum(_number_size(n) for n in raw)
    if kind == "BS":
        return sum(_binary_size(b) for b in raw)
    if kind == "L":
        return 3 + sum(1 + value_size(v) for v in raw)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + value_size(v) for k, v in raw.items())
    raise ValueError(f"unknown attribute type {kind!r}")


def item_size(attrs: Mapping[str, AttributeValue]) -> int:
    """Bytes DynamoDB counts for an item: attribute names plus values."""
    return sum(len(name.encode()) + value_size(value) for name, value in attrs.items())


def read_units(size: int, *, consistent: bool = True, transactional: bool = False) -> float:
    """Read units for one item (or a Query's total) of `size` bytes; a miss costs the minimum."""
    blocks = max(1, math.ceil(size / READ_UNIT_BYTES))
    if transactional:
        return 2.0 * blocks
    return float(blocks) if consistent else 0.5 * blocks


def write_units(size: int, *, transactional: bool = False) -> float:
    blocks = max(1, math.ceil(size / WRITE_UNIT_BYTES))
    return float(blocks * (2 if transactional else 1))


@dataclass(slots=True)
class Usage:
    """Units consumed by a number of storage calls."""

    calls: int = 0
    read_units: float = 0.0
    write_units: float = 0.0

    def add(self, read: float, write: float) -> None:
        self.calls += 1
        self.read_units += read
        self.write_units += write

    @property
    def cost_usd(self) -> float:
        return self.read_units * READ_UNIT_USD + self.write_units * WRITE_UNIT_USD


@dataclass(slots=True)
class Scope:
    """The units used inside one `Meter.scope()` (e.g. one HTTP request), by operation."""

    total: Usage = field(default_factory=Usage)
    operations: dict[str, Usage] = field(default_factory=dict)

    def add(self, operation: str, read: float, write: float) -> None:
        self.total.add(read, write)
        self.operations.setdefault(operation, Usage()).add(read, write)


_scopes: ContextVar[tuple[Scope, ...]] = ContextVar("storage_meter_scopes", default=())


class Meter:
    """Totals per operation since creation, plus per-context scopes. Thread-safe.

    With a `keys` tally, the units of each call are also counted per partition key of the
    table and of each index (api/storage/metering/traffic.py).
    """

    def __init__(self, keys: KeyTally | None = None) -> None:
        self._lock = threading.Lock()
        self._totals = Scope()
        self.keys = keys

    def record(self, operation: str, read: float = 0.0, write: float = 0.0) -> None:
        with self._lock:  # scopes too: a request's queries may run in several threads
            self._totals.add(operation, read, write)
            for scope in _scopes.get():
                scope.add(operation, read, write)

    def touch(self, operation: str, touches: Sequence[Touch]) -> None:
        """Record one call by the units it used on each key."""
        self.record(
            operation, read=sum(t.read for t in touches), write=sum(t.write for t in touches)
        )
        if self.keys is not None:
            self.keys.add(touches)

    @contextmanager
    def scope(self) -> Iterator[Scope]:
        """Collect the units recorded by this thread/context until the block ends."""
        scope = Scope()
        token = _scopes.set((*_scopes.get(), scope))
        try:
            yield scope
        finally:
            _scopes.reset(token)

    def total(self) -> Usage:
        with self._lock:
            t = self._totals.total
            return Usage(t.calls, t.read_units, t.write_units)

    def by_operation(self) -> dict[str, Usage]:
        with self._lock:
            return {
                name: Usage(u.calls, u.read_units, u.write_units)
                for name, u in sorted(self._totals.operations.items())
            }

    def reset(self) -> None:
        with self._lock:
            self._totals = Scope()
