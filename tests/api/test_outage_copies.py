"""D9, D10 with the heartbeat's copies (Layout.clock_copies, api/service/outages.py): the same
outage three windows long is a pause, not a massacre, on the fake store, moto and DynamoDB
Local, also on an instance that saw no failure; and a copy is only ever taken while the beat it
holds is less than one heartbeat interval old."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from api.config import Settings
from api.service.outages import OutageWatch
from api.storage.memory import InMemoryRepository
from api.storage.records import ClockRecord
from tests.api.clock import FakeClock
from tests.api.conftest import EVERY_STORE, TIMING
from tests.api.repos import CountingRepo
from tests.api.test_outages import outage_scenario

COPIES = 4


def with_copies(settings: Settings) -> Settings:
    return replace(settings, layout=replace(settings.layout, clock_copies=COPIES))


@EVERY_STORE
def test_d9_with_copies_an_outage_longer_than_the_window_is_a_pause(
    make_app: Any, clock: FakeClock, repo: Any, settings: Settings
) -> None:
    game, tid, players, went_down, back = outage_scenario(
        make_app, clock, repo, with_copies(settings), fresh_instance=False
    )
    st = game.state(players[0], tid)
    assert {p["status"] for p in st["players"]} == {"playing"}
    assert all(p["lives"] == 3 for p in st["players"])
    [(start, end)] = game.stored(tid).absorbed
    assert went_down - TIMING.reconnect_ms < start <= went_down and back <= end <= back + 1_000
    # The copies were read and written: each holds a beat the heartbeat held.
    held = [repo.get_clock(copy=n) for n in range(COPIES)]
    assert any(h is not None for h in held)
    heartbeat = repo.get_clock(consistent=True)
    assert all(h is None or h.at <= heartbeat.at for h in held)


@EVERY_STORE
def test_d9_with_copies_a_fresh_instance_after_an_outage_drops_nobody(
    make_app: Any, clock: FakeClock, repo: Any, settings: Settings
) -> None:
    game, tid, players, _, _ = outage_scenario(
        make_app, clock, repo, with_copies(settings), fresh_instance=True
    )
    st = game.state(players[0], tid)
    assert {p["status"] for p in st["players"]} == {"playing"}


def test_d9_a_copy_is_taken_only_while_its_beat_is_fresh() -> None:
    """A copy with an old beat sends the refresh to the heartbeat, which it beats if it is
    old, and the copy is written with what it found; a fresh copy is taken alone."""
    store = InMemoryRepository()
    repo = CountingRepo(store)
    now = [1_000_000]
    beat = 9_500
    watch = OutageWatch(repo, lambda: now[0], beat, 20_000, copies=1, rng=random.Random(1))
    store.put_clock(None, ClockRecord(now[0] - 60_000))  # an old beat: a gap, an outage
    store.put_clock_copy(0, ClockRecord(now[0] - 60_000))
    outages = watch.refresh()
    assert [(o.start, o.end) for o in outages] == [(now[0] - 60_000, now[0])]
    assert store.get_clock(consistent=True) == store.get_clock(copy=0)
    assert store.get_clock(copy=0).at == now[0]
    repo.reset()
    now[0] += beat - 1  # still fresh: the copy alone answers
    assert watch.refresh() == outages
    assert [name for name, _ in repo.calls] == ["get_clock"]
    repo.reset()
    now[0] += 1  # one interval old: back to the heartbeat, beaten, and the copy refilled
    watch.refresh()
    assert [name for name, _ in repo.calls] == [
        "get_clock",
        "get_clock",
        "put_clock",
        "put_clock_copy",
    ]
    assert store.get_clock(copy=0) == store.get_clock(consistent=True)
    assert store.get_clock(copy=0).at == now[0]


def test_d9_a_copy_never_goes_back_to_an_older_beat() -> None:
    store = InMemoryRepository()
    store.put_clock_copy(2, ClockRecord(5_000))
    store.put_clock_copy(2, ClockRecord(4_000))  # a slower reader's older find
    assert store.get_clock(copy=2) == ClockRecord(5_000)
    assert store.get_clock(copy=1) is None
