"""What the in-memory fake tells an observer of its calls, as records: the capacity meter is one
(api/storage/metering/memory.py: what each call would cost on DynamoDB, for `bench scale`).
Without one the fake computes nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from api.storage import keys
from api.storage.records import ClockRecord, Record
from core.leaderboard import Board

# A stored record (None: no item) and the contact stamps kept beside it.
Image = tuple[Record | None, Mapping[str, int]]


class Observer(Protocol):
    def read(
        self,
        operation: str,
        pk: str,
        record: Record | None,
        stamps: Mapping[str, int],
        *,
        consistent: bool = True,
    ) -> None:
        """A read of one item by key."""

    def read_many(self, operation: str, found: Iterable[tuple[str, Record | None]]) -> None:
        """One batch of reads by key: each key and what it holds."""

    def query(
        self,
        operation: str,
        index: str,
        partition: str,
        found: Sequence[tuple[Record, Mapping[str, int]]],
    ) -> None:
        """One page of an index partition."""

    def updated(
        self, operation: str, pk: str, before: Image, after: Image, *, applied: bool
    ) -> None:
        """An update of one item without a version bump (a stamp, a deadline)."""

    def committed(self, changes: Sequence[tuple[Image, Image]], *, applied: bool) -> None:
        """A commit: each item as it was and as the commit leaves it (or would have)."""

    def counted(self, subject: str) -> None:
        """A rate-limit count."""

    def read_clock(
        self, clock: ClockRecord | None, *, consistent: bool, key: str = keys.CLOCK
    ) -> None: ...

    def wrote_clock(self, clock: ClockRecord, key: str = keys.CLOCK) -> None: ...

    def read_board(self, name: str, board: Board | None) -> None: ...

    def wrote_board(self, board: Board) -> None: ...

    def read_parts(self, parts: Mapping[int, Mapping[str, Board]]) -> None: ...

    def wrote_part(self, part: int, boards: Mapping[str, Board]) -> None: ...

    def claimed(self) -> None:
        """The leaderboards' refresh claim."""
