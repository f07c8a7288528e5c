"""D9: any authenticated request is contact, written at most once per contact interval, and that
interval follows the reconnect window (a sixth of it, at most 10 s). Settings that cannot work
are refused at start-up."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from api.config import Settings
from api.storage.memory import InMemoryRepository
from core.timing import Timing
from tests.api.clock import FakeClock
from tests.api.conftest import EVERY_STORE, game_for
from tests.api.game import Game
from tests.api.repos import CountingRepo

# Turns long enough that only the disconnect window matters here.
CALM = dict(turn_ms=600_000, intro_ms=1_000)


def statuses(game: Game, tid: str) -> dict[str, str]:
    return {p.id: p.status for p in game.stored(tid).players}


@EVERY_STORE
def test_d9_any_authenticated_request_is_contact(game: Game) -> None:
    """A player in a tournament who only calls GET /v1/me (or the queue, or a group) is heard
    from: two windows later they are still in."""
    tid, players = game.start_tournament()
    me = players[0]
    routes = ["/v1/me", "/v1/queue", f"/v1/groups/{game.me(me)['group_id']}"]
    end = game.clock.ms + 2 * 30_000
    i = 0
    while game.clock.ms < end:
        game.get(routes[i % len(routes)], me)
        i += 1
        game.clock.advance(1_000)
    # The others said nothing at all: they have left (D9); the one who kept calling has not.
    st = game.state(me, tid)
    left = {p["id"] for p in st["players"] if p["status"] == "left"}
    assert left == {p.id for p in players[1:]}


def test_d9_contact_interval_follows_a_short_window(make_app: Any, clock: FakeClock) -> None:
    """With the shortest workable window (10 s), players polling every second never leave:
    a fixed 10 s interval would have dropped them all at the window."""
    repo = InMemoryRepository()
    settings = Settings(timing=Timing(reconnect_ms=10_000, **CALM))
    assert not settings.problems()
    game = game_for(make_app(repo, settings=settings), clock, repo)
    tid, players = game.start_tournament()
    for _ in range(60):
        for p in players:
            game.state(p, tid)
        clock.advance(1_000)
    assert set(statuses(game, tid).values()) == {"playing"}


def test_d9_lobby_seats_are_heard_from_on_the_player_coalesced(
    make_app: Any, clock: FakeClock
) -> None:
    """A seated player's requests stamp the player (PlayerRecord.last_contact, what D16 reads),
    at most once per interval."""
    counting = CountingRepo(InMemoryRepository())
    settings = Settings(timing=Timing(reconnect_ms=30_000, **CALM))
    game = game_for(make_app(counting, settings=settings), clock, counting)
    p = game.new_player()
    assert game.post("/v1/queue", p, json={"language": "en"}).status_code == 201
    counting.reset()
    start = clock.ms
    for _ in range(40):  # the lobby page polls every second
        assert game.get("/v1/queue", p).status_code == 200
        clock.advance(1_000)
    stamps = [args[1] for name, args in counting.calls if name == "touch_player"]
    interval = settings.timing.contact_interval_ms
    assert 40_000 // interval - 1 <= len(stamps) <= 40_000 // interval + 1
    assert all(b - a >= interval for a, b in itertools.pairwise(stamps))
    stored = counting.get_player(p.id)
    assert stored is not None and stored.last_contact >= start + 40_000 - interval - 1_000


@EVERY_STORE
def test_d9_a_seat_stamp_survives_a_write_of_the_player(game: Game, repo: Any) -> None:
    p = game.new_player()
    game.clock.advance(20_000)
    game.get("/v1/me", p)
    stamped = game.clock.ms
    assert game.post("/v1/queue", p, json={"language": "en"}).status_code == 201  # a Put
    stored = repo.get_player(p.id)
    assert stored is not None and stored.last_contact == stamped


# ---------------------------------------------------------------------------- settings


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({"WT_RECONNECT_SECONDS": "3"}, "WT_RECONNECT_SECONDS"),
        ({"WT_RECONNECT_SECONDS": "9.9"}, "WT_RECONNECT_SECONDS"),
        ({"WT_TURN_SECONDS": "0.5"}, "WT_TURN_SECONDS"),
        ({"WT_INTRO_SECONDS": "3600"}, "WT_INTRO_SECONDS"),
        ({"WT_CREATIONS_PER_MINUTE": "0"}, "WT_CREATIONS_PER_MINUTE"),
        ({"WT_OUTAGE_SECONDS": "0.5"}, "WT_OUTAGE_SECONDS"),
        ({"WT_OUTAGE_SECONDS": "55"}, "WT_OUTAGE_SECONDS"),
    ],
)
def test_settings_that_cannot_work_are_refused_at_start_up(env: dict[str, str], named: str) -> None:
    with pytest.raises(ValueError, match=named):
        Settings.from_env(env)


def test_workable_settings_start() -> None:
    settings = Settings.from_env({"WT_RECONNECT_SECONDS": "10", "WT_TURN_SECONDS": "1"})
    assert settings.timing.contact_interval_ms == 1_666  # a sixth of the window
    assert Settings.from_env({}).timing.contact_interval_ms == 10_000  # at most 10 s
