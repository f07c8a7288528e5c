"""DynamoDB's billing arithmetic: an item's size and the units a read or a write of it costs.

moto reports a fixed ConsumedCapacity whatever the size, so the meter computes the units itself
from the items read and written. Billing rules (on-demand, as documented by AWS):

- read: per item, rounded up per 4 KB; 0.5 unit eventually consistent, 1 strongly consistent,
  2 transactional; a Query rounds the total of the items it read; a miss still costs the minimum.
- write: per item, rounded up per 1 KB; 2 units per KB in a transaction; an update is billed on
  the whole item, not on the attributes changed; a failed condition still costs the write.

Item size: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

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
