"""Small items beside the records, as DynamoDB requests and replies: rate-limit counters
(`R#<key>`, api/service/limits.py), storage's heartbeat (`S#clock`, api/service/outages.py) and
the health check's write (`S#health`, /v1/health).
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
from api.storage.counter_windows import DEPTH, kept, stale_windows
from api.storage.dynamodb.writes import ALL_OLD
from api.storage.records import ClockRecord

COUNT = "c"  # a counter's count of window n is its attribute `c<n>`


class CounterItem(Model):
    """A rate-limit subject `R#<key>`: a number attribute `c<window>` for each window that can
    still count (this one and the previous: api/storage/counter_windows.py)."""

    key = UnicodeAttribute(hash_key=True, attr_name="pk")
    expires = NumberAttribute(attr_name="x")  # TTL, epoch seconds
    write_id = UnicodeAttribute(null=True, attr_name="w")  # of the last count
    newest = NumberAttribute(null=True, attr_name="l")  # the newest window counted


class ClockItem(Model):
    key = UnicodeAttribute(hash_key=True, attr_name="pk")
    beat_at = NumberAttribute(attr_name="at")  # when storage was last known to be writable
    outages = UnicodeAttribute(attr_name="o")  # `<start>:<end>,…`, oldest first


def _expires(window: int, window_ms: int) -> int:
    """When the window after `window` ends, in epoch seconds: the item's TTL."""
    return -(-((window + 2) * window_ms) // 1000)


def _not_ours(write_id: str) -> Condition:
    condition: Condition = CounterItem.write_id.does_not_exist() | (
        CounterItem.write_id != write_id
    )
    return condition


def count_request(
    conn: TableConnection, key: str, window: int, window_ms: int, add: int, write_id: str
) -> dict[str, Any]:
    """One UpdateItem that adds to this window's count, removes every window that can no
    longer count (api/storage/counter_windows.py) and returns the item (ALL_NEW): no read, no
    condition on the counts. Its condition holds when the item's newest window is recent
    enough for those removals to leave nothing behind; when it fails, ALL_OLD gives the item
    for `rebuild_request`. `w <> id`: a retry of a count that landed fails instead of counting
    twice, and ALL_OLD shows the item as it left it."""
    removed = [Path([f"{COUNT}{stale}"]).remove() for stale in stale_windows(window)]
    actions: list[Action] = [
        Path([f"{COUNT}{window}"]).add(add),
        *removed,
        CounterItem.expires.set(_expires(window, window_ms)),
        CounterItem.write_id.set(write_id),
        CounterItem.newest.set(window),
    ]
    recent = CounterItem.newest.between(window - DEPTH, window)
    condition = (CounterItem.key.does_not_exist() | recent) & _not_ours(write_id)
    kwargs = conn.get_operation_kwargs(
        keys.counter_key(key), actions=actions, condition=condition, return_values="ALL_NEW"
    )
    return kwargs | ALL_OLD


def window_counts(item: dict[str, Any]) -> dict[int, int]:
    """Every window's count in a counter item."""
    return {
        int(name[len(COUNT) :]): int(value["N"])
        for name, value in item.items()
        if name.startswith(COUNT) and name[len(COUNT) :].isdigit()
    }


def rebuild_request(
    conn: TableConnection,
    key: str,
    old: dict[str, Any],
    window: int,
    window_ms: int,
    add: int,
    write_id: str,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A PutItem that replaces the counter `old` (as a failed count returned it) with the
    windows that can still count, this count added: (its request, the item it stores).
    Conditional on the item being the one read (its write id), so nothing counted meanwhile is
    lost: if it fails, count again."""
    newest, counts = kept(window_counts(old), window, add)
    item = CounterItem(
        keys.counter_key(key),
        expires=_expires(newest, window_ms),
        write_id=write_id,
        newest=newest,
    ).serialize()
    item |= {f"{COUNT}{w}": {"N": str(n)} for w, n in sorted(counts.items())}
    previous = old.get(CounterItem.write_id.attr_name, {}).get("S")
    unchanged = (
        CounterItem.write_id == previous
        if previous is not None
        else CounterItem.key.exists() & CounterItem.write_id.does_not_exist()
    )
    kwargs = conn.get_operation_kwargs(
        keys.counter_key(key), key="Item", attributes=item, condition=unchanged
    )
    return kwargs | ALL_OLD, item


def counts(item: dict[str, Any], window: int) -> tuple[int, int]:
    """(this window's count, the previous window's) from a counter item."""

    def number(name: str) -> int:
        return int(item.get(name, {}).get("N", "0"))

    return number(f"{COUNT}{window}"), number(f"{COUNT}{window - 1}")


def probe_item(now: int) -> dict[str, Any]:
    """The health item as a probe at `now` leaves it."""
    return {"pk": {"S": keys.HEALTH}, ClockItem.beat_at.attr_name: {"N": str(now)}}


def probe_request(conn: TableConnection, now: int) -> dict[str, Any]:
    """An unconditional UpdateItem of `S#health`: the cheapest write that must reach the
    store's disk (a write whose condition fails writes nothing, so proves nothing)."""
    kwargs: dict[str, Any] = conn.get_operation_kwargs(
        keys.HEALTH, actions=[ClockItem.beat_at.set(now)]
    )
    return kwargs


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
