"""R11, R21, D9, D10 through the HTTP app with a fake clock: a storage outage longer than the
reconnect window is a pause, not a massacre, on the fake store, moto and DynamoDB Local; also
when the first request after it reaches an instance that saw no failure; and no traffic is not
an outage."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import Any

from flask import Flask

from api.config import Settings
from api.service import Service
from api.storage.repository import Unavailable
from tests.api.clock import FakeClock
from tests.api.conftest import EVERY_STORE, TIMING, game_for
from tests.api.game import Game, Player
from tests.api.repos import BrokenRepo

OUTAGE_MS = 3 * TIMING.reconnect_ms  # far longer than the window


def sweep(app: Flask) -> None:
    service: Service = app.extensions["service"]
    with contextlib.suppress(Unavailable):  # the scheduled sweep fails too while storage is down
        service.sweep()


def poll_all(game: Game, tid: str, players: list[Player], app: Flask, ms: int) -> list[int]:
    """Everyone polls every second for `ms` (the sweep runs too); the statuses seen."""
    seen = []
    for _ in range(ms // 1000):
        for p in players:
            seen.append(game.get(f"/v1/tournaments/{tid}/state", p).status_code)
        sweep(app)
        game.clock.advance(1_000)
    return seen


def outage_scenario(
    make_app: Any, clock: FakeClock, repo: Any, settings: Settings, *, fresh_instance: bool
) -> tuple[Game, str, list[Player], int, int]:
    broken = BrokenRepo(repo)
    app = make_app(broken, settings=replace(settings, rate_limits=False))
    game = game_for(app, clock, broken)
    tid, players = game.start_tournament()
    poll_all(game, tid, players, app, TIMING.intro_ms + 3_000)  # 3 s into the first turns
    went_down = clock.ms
    broken.down = True
    seen = poll_all(game, tid, players, app, OUTAGE_MS)
    assert set(seen) == {503}
    broken.down = False
    back = clock.ms
    if fresh_instance:  # the first request after it reaches an instance that saw nothing
        app = make_app(broken, settings=replace(settings, rate_limits=False))
        game = game_for(app, clock, broken)
    poll_all(game, tid, players, app, 3_000)
    return game, tid, players, went_down, back


@EVERY_STORE
def test_d9_an_outage_longer_than_the_window_drops_nobody_who_kept_polling(
    make_app: Any, clock: FakeClock, repo: Any, settings: Settings
) -> None:
    game, tid, players, went_down, back = outage_scenario(
        make_app, clock, repo, settings, fresh_instance=False
    )
    st = game.state(players[0], tid)
    assert {p["status"] for p in st["players"]} == {"playing"}
    assert all(p["lives"] == 3 for p in st["players"])
    # R11: no turn that nobody could play was counted as a skip.
    for d in st["duels"]:
        board = game.get(f"/v1/tournaments/{tid}/duels/{d['id']}", players[0]).get_json()
        assert not [r for r in board["rows"] if r.get("skipped") and went_down < r["at"] < back]
        assert board["deadline"] is None or board["deadline"] > back
    stored = game.stored(tid)
    assert len(stored.absorbed) == 1
    start, end = stored.absorbed[0]
    assert went_down - TIMING.reconnect_ms < start <= went_down and back <= end <= back + 1_000


@EVERY_STORE
def test_d9_the_first_request_after_an_outage_may_reach_an_instance_that_saw_none(
    make_app: Any, clock: FakeClock, repo: Any, settings: Settings
) -> None:
    game, tid, players, _, _ = outage_scenario(make_app, clock, repo, settings, fresh_instance=True)
    st = game.state(players[0], tid)
    assert {p["status"] for p in st["players"]} == {"playing"}


def test_d9_without_outage_detection_the_same_outage_drops_everyone(
    make_app: Any, clock: FakeClock, repo: Any, settings: Settings
) -> None:
    """The massacre the heartbeat prevents (and the proof that the scenario is one)."""
    off = replace(settings, outage_gap_ms=0)
    game, tid, players, _, _ = outage_scenario(make_app, clock, repo, off, fresh_instance=False)
    st = game.state(players[0], tid)
    assert st["phase"] == "finished"
    assert {p["status"] for p in st["players"]} == {"left"}


def test_d9_no_traffic_is_not_an_outage(
    make_app: Any, clock: FakeClock, repo: Any, settings: Settings
) -> None:
    """Everyone falls silent; only the sweep runs (more often than the outage gap): nothing is
    recorded, and each player leaves exactly at their last contact + the window (D9)."""
    app = make_app(repo, settings=replace(settings, rate_limits=False))
    game = game_for(app, clock, repo)
    tid, players = game.start_tournament()
    poll_all(game, tid, players, app, 5_000)
    contacts = {p.id: p.last_contact for p in game.stored(tid).players}
    for _ in range(2 * TIMING.reconnect_ms // 5_000):
        clock.advance(5_000)
        sweep(app)
    stored = game.stored(tid)
    assert stored.absorbed == ()
    assert all(p.left_at == contacts[p.id] + TIMING.reconnect_ms for p in stored.players)
    assert repo.get_clock().outages == ()


def test_d9_d18_one_instance_polled_every_nine_seconds_keeps_the_heartbeat_fresh() -> None:
    """A lone person (house bots, D18) and the minutely sweep on another instance: the app's
    view lasts while the heartbeat it saw is younger than the beat interval (not for a beat
    interval after it looked), so the poll after the sweep's beat that finds it old beats in
    time, and no quiet moment becomes an outage."""
    from api.service.outages import OutageWatch
    from api.storage.memory import InMemoryRepository

    clock = FakeClock(1_000_000)
    repo = InMemoryRepository()
    app = OutageWatch(repo, clock, beat_ms=9_500, gap_ms=20_000)
    sweep = OutageWatch(repo, clock, beat_ms=9_500, gap_ms=20_000)
    app.outages()  # the app beats at 0
    clock.advance(8_000)
    sweep.refresh(beat=True)  # the sweep at 8 s
    for _ in range(3):  # polls at 12 s (the heartbeat is the sweep's, fresh), 21 s, 30 s
        clock.advance(4_000 if clock.ms == 1_008_000 else 9_000)
        app.outages()
    heartbeat = repo.get_clock()
    assert heartbeat is not None and heartbeat.outages == ()
    assert heartbeat.at >= 1_021_000  # the poll at 21 s beat (the heartbeat was 13 s old)
