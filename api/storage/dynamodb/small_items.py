"""Small items beside the records, as DynamoDB requests and replies: rate-limit counters
(`R#<key>`, api/service/limits.py) and storage's heartbeat (`S#clock`, api/service/outages.py).
"""

from __future__ import annotations

from typing import Any

from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.connection import TableConnection
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.operand import Path
from pynamodb.expressions.update import Action
from pynamodb.models import Model

from api.storage import keys
from api.storage.dynamodb.writes import ALL_OLD
from api.storage.records import ClockRecord

COUNT = "c"  # a counter's count of window n is its attribute `c<n>`


class CounterItem(Model):
    """A rate-limit subject `R#<key>`: a number attribute `c<window>` per recent window."""

    key = UnicodeAttribute(hash_key=True, attr_name="pk")
    expires = NumberAttribute(attr_name="x")  # TTL, epoch seconds
    write_id = UnicodeAttribute(null=True, attr_name="w")  # of the last count


class ClockItem(Model):
    key = UnicodeAttribute(hash_key=True, attr_name="pk")
    beat_at = NumberAttribute(attr_name="at")  # when storage was last known to be writable
    outages = UnicodeAttribute(attr_name="o")  # `<start>:<end>,…`, oldest first


def count_request(
    conn: TableConnection, key: str, window: int, window_ms: int, add: int, write_id: str
) -> dict[str, Any]:
    """One item per subject with a count attribute per window (`c<window>`): one UpdateItem
    adds to this window's, drops the one before the previous, and returns the item (ALL_NEW),
    with no read and no condition on the counts. `w <> id`: a retry of a count that landed
    fails instead of counting twice, and ALL_OLD shows the item as it left it."""
    current, stale = Path([f"{COUNT}{window}"]), Path([f"{COUNT}{window - 2}"])
    expires = -(-((window + 2) * window_ms) // 1000)  # when the next window ends, epoch s
    actions: list[Action] = [
        current.add(add),
        stale.remove(),
        CounterItem.expires.set(expires),
        CounterItem.write_id.set(write_id),
    ]
    condition = CounterItem.write_id.does_not_exist() | (CounterItem.write_id != write_id)
    kwargs = conn.get_operation_kwargs(
        keys.counter_key(key), actions=actions, condition=condition, return_values="ALL_NEW"
    )
    return kwargs | ALL_OLD


def counts(item: dict[str, Any], window: int) -> tuple[int, int]:
    """(this window's count, the previous window's) from a counter item."""

    def number(name: str) -> int:
        return int(item.get(name, {}).get("N", "0"))

    return number(f"{COUNT}{window}"), number(f"{COUNT}{window - 1}")


def clock_record(item: dict[str, Any]) -> ClockRecord:
    clock = ClockItem.from_raw_data(item)
    pairs = (pair.split(":") for pair in (clock.outages or "").split(",") if pair)
    return ClockRecord(int(clock.beat_at), tuple((int(s), int(e)) for s, e in pairs))


def clock_attributes(clock: ClockRecord, key: str = keys.CLOCK) -> dict[str, Any]:
    """The heartbeat's item (or, with `key`, one of its copies')."""
    outages = ",".join(f"{s}:{e}" for s, e in clock.outages)
    attrs: dict[str, Any] = ClockItem(key, beat_at=clock.at, outages=outages).serialize()
    return attrs


def clock_copy_request(conn: TableConnection, key: str, attrs: dict[str, Any]) -> dict[str, Any]:
    """A PutItem of a heartbeat's copy, only over an older beat (or none)."""
    newer = ClockItem.key.does_not_exist() | (ClockItem.beat_at < int(attrs["at"]["N"]))
    kwargs: dict[str, Any] = conn.get_operation_kwargs(
        key, key="Item", attributes=attrs, condition=newer
    )
    return kwargs


def clock_request(
    conn: TableConnection, expected: ClockRecord | None, attrs: dict[str, Any]
) -> dict[str, Any]:
    """A PutItem conditional on the beat it replaces (none: that there is none yet)."""
    condition: Condition
    if expected is None:
        condition = ClockItem.key.does_not_exist()
    else:
        condition = ClockItem.beat_at == expected.at
    kwargs = conn.get_operation_kwargs(
        keys.CLOCK, key="Item", attributes=attrs, condition=condition
    )
    return kwargs | ALL_OLD


def clock_landed(old: dict[str, Any] | None, attrs: dict[str, Any]) -> bool:
    """Whether a heartbeat whose condition failed was our own, applied by an earlier attempt."""
    names = (ClockItem.beat_at.attr_name, ClockItem.outages.attr_name)
    return old is not None and all(old.get(name) == attrs[name] for name in names)
