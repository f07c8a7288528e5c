"""Item sizes and capacity units as AWS documents them."""

from __future__ import annotations

import threading

import pytest

from api.storage.metering.billing import item_size, read_units, value_size, write_units
from api.storage.metering.meter import Meter


@pytest.mark.parametrize(
    ("value", "size"),
    [
        ({"S": "héllo"}, 6),  # UTF-8 bytes
        ({"N": "1000"}, 2),  # trailing zeros trimmed: 1 significant digit
        ({"N": "12345"}, 4),  # ceil(5 / 2) + 1
        ({"N": "-0.0012"}, 2),
        ({"B": b"\x00" * 10}, 10),
        ({"BOOL": True}, 1),
        ({"NULL": True}, 1),
        ({"L": []}, 3),
        ({"L": [{"S": "ab"}, {"N": "7"}]}, 3 + (1 + 2) + (1 + 2)),
        ({"M": {"p1": {"N": "5"}}}, 3 + 1 + 2 + 2),
        ({"SS": ["a", "bc"]}, 3),
    ],
)
def test_value_sizes(value: dict[str, object], size: int) -> None:
    assert value_size(value) == size


def test_item_size_counts_attribute_names() -> None:
    assert item_size({"pk": {"S": "P#abc"}, "nickname": {"S": "x"}}) == 2 + 5 + 8 + 1


def test_units_round_up_per_block() -> None:
    assert read_units(0) == 1.0  # a miss still costs the minimum
    assert read_units(4096) == 1.0
    assert read_units(4097) == 2.0
    assert read_units(3000, consistent=False) == 0.5
    assert read_units(3000, transactional=True) == 2.0
    assert write_units(1) == 1.0
    assert write_units(5 * 1024) == 5.0
    assert write_units(5 * 1024 + 1) == 6.0
    assert write_units(5 * 1024, transactional=True) == 10.0


def test_totals_and_scopes() -> None:
    meter = Meter()
    meter.record("get", read=1.0)
    with meter.scope() as outer:
        meter.record("get", read=0.5)
        with meter.scope() as inner:
            meter.record("put", write=2.0)
    assert (outer.total.calls, outer.total.read_units, outer.total.write_units) == (2, 0.5, 2.0)
    assert (inner.total.calls, inner.total.write_units) == (1, 2.0)
    assert set(outer.operations) == {"get", "put"}
    assert meter.total().read_units == 1.5
    assert meter.by_operation()["get"].calls == 2
    assert meter.total().cost_usd == pytest.approx(1.5 * 0.125e-6 + 2.0 * 0.625e-6)


def test_scopes_belong_to_their_thread() -> None:
    meter = Meter()
    with meter.scope() as mine:
        thread = threading.Thread(target=meter.record, args=("other",), kwargs={"write": 3.0})
        thread.start()
        thread.join()
        meter.record("mine", write=1.0)
    assert mine.total.write_units == 1.0
    assert meter.total().write_units == 4.0
