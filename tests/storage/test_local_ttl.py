"""`make run` deletes expired items itself: DynamoDB Local and moto accept the
table's TTL and never carry it out (api/local/ttl.py)."""

from __future__ import annotations

import io
import json
import logging
from dataclasses import replace

import pytest

from api.config import Settings
from api.local import console, ttl
from api.storage.repository import Put
from tests.conftest import STORES, MakeTable
from tests.storage.factories import lobby, player

NOW_S = 1_800_000_000  # the sweep's clock, epoch seconds
DAY_MS = 86_400_000


@pytest.mark.parametrize("store", STORES)
def test_items_past_their_ttl_are_deleted_and_nothing_else(
    store: str, make_table: MakeTable, log_lines: io.StringIO
) -> None:
    repo = make_table(store)
    now_ms = NOW_S * 1000
    old_window, window_ms = (now_ms - 10 * 60_000) // 60_000, 60_000
    for n in range(130):  # more than a Scan page
        repo.count(f"ip:{n}", old_window, window_ms, 1)  # expired two windows on
    repo.count("ip:now", now_ms // window_ms, window_ms, 1)  # still counting
    old, recent = now_ms - 2 * DAY_MS, now_ms - 1_000
    full = (1000,) * 8
    started = [lobby(f"s{n}", created_at=old, tournament_id="t1", ratings=full) for n in "ab"]
    fresh = lobby("s_fresh", created_at=recent, tournament_id="t1", ratings=full)
    waiting = lobby("open", created_at=old)  # an open lobby has no TTL
    repo.commit([Put(r, new=True) for r in (*started, fresh, waiting, player("p1"))])

    expiry = ttl.Expiry(repo.settings, per_second=10_000, clock=lambda: NOW_S)
    try:
        assert expiry.sweep() == {"R#": 130, "L#": 2}
        assert expiry.sweep() == {}  # nothing left to delete
    finally:
        expiry.stop()
    assert repo.get_lobby("open") is not None and repo.get_lobby("s_fresh") is not None
    assert repo.get_lobby("sa") is None and repo.get_player("p1") is not None
    assert repo.count("ip:now", now_ms // window_ms, window_ms, 1) == (2, 0)
    assert repo.count("ip:0", old_window, window_ms, 1) == (1, 0)  # counted afresh
    [line] = [json.loads(x) for x in log_lines.getvalue().splitlines()]
    assert line["message"] == "expired items deleted"
    assert (line["deleted"], line["by_kind"]) == (132, {"R#": 130, "L#": 2})


def test_only_the_local_engines_get_a_ttl_thread() -> None:
    assert ttl.STORES == ("dynamodb-local", "moto")
    assert ttl.start(replace(Settings(), store="dynamodb")) is None  # AWS deletes by itself


@pytest.mark.parametrize(("env", "level"), [({}, logging.WARNING), ({"WT_ACCESS_LOG": "1"}, 20)])
def test_werkzeugs_line_per_request_only_with_wt_access_log(
    env: dict[str, str], level: int
) -> None:
    werkzeug = logging.getLogger("werkzeug")
    before = werkzeug.level
    try:
        console.configure(env)
        assert werkzeug.level == level
    finally:
        werkzeug.setLevel(before)
