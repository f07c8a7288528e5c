"""Small items beside the records, as DynamoDB requests and replies: rate-limit counters
(`R#<key>`, api/service/limits.py) and storage's heartbeat (`S#clock`, api/service/outages.py).
"""

from __future__ import annotations

from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.expressions.operand import Path
from pynamodb.expressions.update import Action

from api.storage.dynamodb.items import CounterItem
from api.storage.dynamodb.writes import ALL_OLD
from api.storage.records import ClockRecord

CLOCK_KEY = "S#clock"


def count_request(
    conn: TableConnection, key: str, window: int, window_ms: int, add: int, write_id: str
) -> dict[str, Any]:
    """One item per subject with a count attribute per window (`c<window>`): one UpdateItem
    adds to this window's, drops the one before the previous, and returns the item (ALL_NEW),
    with no read and no condition on the counts. `w <> id`: a retry of a count that landed
    fails instead of counting twice, and ALL_OLD shows the item as it left it."""
    current, stale = Path([f"c{window}"]), Path([f"c{window - 2}"])
    expires = -(-((window + 2) * window_ms) // 1000)  # when the next window ends, epoch s
    actions: list[Action] = [
        current.add(add),
        stale.remove(),
        CounterItem.x.set(expires),
        CounterItem.w.set(write_id),
    ]
    condition = CounterItem.w.does_not_exist() | (CounterItem.w != write_id)
    kwargs = conn.get_operation_kwargs(
        "R#" + key, actions=actions, condition=condition, return_values="ALL_NEW"
    )
    return kwargs | ALL_OLD


def counts(item: dict[str, Any], window: int) -> tuple[int, int]:
    """(this window's count, the previous window's) from a counter item."""

    def number(name: str) -> int:
        return int(item.get(name, {}).get("N", "0"))

    return number(f"c{window}"), number(f"c{window - 1}")


def clock_record(item: dict[str, Any]) -> ClockRecord:
    text = item.get("o", {}).get("S", "")
    pairs = (pair.split(":") for pair in text.split(",") if pair)
    return ClockRecord(int(item["at"]["N"]), tuple((int(s), int(e)) for s, e in pairs))


def clock_attributes(clock: ClockRecord) -> dict[str, Any]:
    return {
        "pk": {"S": CLOCK_KEY},
        "at": {"N": str(clock.at)},
        "o": {"S": ",".join(f"{s}:{e}" for s, e in clock.outages)},
    }


def clock_request(
    conn: TableConnection, expected: ClockRecord | None, attrs: dict[str, Any]
) -> dict[str, Any]:
    """A PutItem conditional on the beat it replaces (none: that there is none yet)."""
    condition = Path("pk").does_not_exist() if expected is None else Path("at") == expected.at
    kwargs = conn.get_operation_kwargs(CLOCK_KEY, key="Item", attributes=attrs, condition=condition)
    return kwargs | ALL_OLD


def clock_landed(old: dict[str, Any] | None, attrs: dict[str, Any]) -> bool:
    """Whether a heartbeat whose condition failed was our own, applied by an earlier attempt."""
    return old is not None and old.get("at") == attrs["at"] and old.get("o") == attrs["o"]
