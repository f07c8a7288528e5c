"""What the DynamoDB adapter tells an observer of its calls: each read with the items it got,
each write with what it changed. The capacity meter is one (api/storage/metering/dynamodb.py,
for the benchmarks, the load test and the tests of the billing); in production there is none,
and `NO_OBSERVER` does nothing at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from api.storage.dynamodb.writes import Op

Raw = dict[str, Any]  # an item in DynamoDB's wire format


class Observer(Protocol):
    def read(self, operation: str, pk: str, item: Raw | None, *, consistent: bool) -> None:
        """A GetItem of `pk` that found `item` (None: nothing)."""

    def read_many(self, operation: str, found: Sequence[Raw], missing: Sequence[str]) -> None:
        """One BatchGetItem call (strongly consistent): the items found, the keys not there
        (keys left unprocessed are in neither: they are asked again)."""

    def query(self, operation: str, index: str, partition: str, page: Sequence[Raw]) -> None:
        """One page of an index Query (eventually consistent)."""

    def committed(self, ops: Sequence[Op], *, transactional: bool, applied: bool) -> None:
        """A commit's writes, applied or refused (a failed condition is billed too)."""

    def wrote(self, operation: str, pk: str, item: Raw) -> None:
        """A write of a small item in no index, billed on its size (`item` as stored)."""

    def touched(self, operation: str, pk: str, *, applied: bool) -> None:
        """An update of an item's attributes that are in no index (a tournament's stamp)."""

    def touched_player(self, pk: str, *, applied: bool) -> None:
        """A player's contact stamp (touch_player)."""

    def touched_lobby(self, pk: str, now: int, *, applied: bool) -> None:
        """A lobby's contact stamp at `now`: its map is projected into `fill`."""

    def rescheduled(
        self, operation: str, pk: str, shard: str, due: int | None, *, applied: bool
    ) -> None:
        """A tournament or lobby moved to `due` in the `due` shard `shard` (None: out of it)."""

    def claimed(self, pk: str, now: int, write_id: str, *, applied: bool) -> None:
        """The leaderboards' refresh claimed at `now` (an update of the claim item)."""


class _Nothing:
    """Production's observer: every call is heard and forgotten."""

    def read(self, operation: str, pk: str, item: Raw | None, *, consistent: bool) -> None:
        pass

    def read_many(self, operation: str, found: Sequence[Raw], missing: Sequence[str]) -> None:
        pass

    def query(self, operation: str, index: str, partition: str, page: Sequence[Raw]) -> None:
        pass

    def committed(self, ops: Sequence[Op], *, transactional: bool, applied: bool) -> None:
        pass

    def wrote(self, operation: str, pk: str, item: Raw) -> None:
        pass

    def touched(self, operation: str, pk: str, *, applied: bool) -> None:
        pass

    def touched_player(self, pk: str, *, applied: bool) -> None:
        pass

    def touched_lobby(self, pk: str, now: int, *, applied: bool) -> None:
        pass

    def rescheduled(
        self, operation: str, pk: str, shard: str, due: int | None, *, applied: bool
    ) -> None:
        pass

    def claimed(self, pk: str, now: int, write_id: str, *, applied: bool) -> None:
        pass


NO_OBSERVER: Observer = _Nothing()
