"""The capacity meter: DynamoDB units per operation since it was made, and per scope (one HTTP
request, one sweep), from the calls the repository's observer reports (api/storage/metering/
dynamodb.py for the adapter, memory.py for the fake); with a KeyTally, per partition key too
(api/storage/metering/traffic.py). The units follow DynamoDB's billing (billing.py).

Only the benchmarks, the load test and `bench scale` make one: in production nothing is metered.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from api.storage.metering.billing import READ_UNIT_USD, WRITE_UNIT_USD
from api.storage.metering.traffic import KeyTally, Touch


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
