"""Errors when the service says no for now: 429 over a budget, 503 when storage fails or every
attempt conflicts; JSON like every error (D14), with Retry-After."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from api.config import Settings
from api.service.creation_limits import ADDRESS
from api.storage.memory import InMemoryRepository
from api.storage.repository import Conflict as StorageConflict
from tests.api.clock import FakeClock
from tests.api.conftest import TIMING, game_for
from tests.api.error_checks import Live, assert_error, live_duels
from tests.api.game import Game
from tests.api.repos import BrokenRepo, RepoProxy
from tests.api.words import fillers


@pytest.fixture
def live(game: Game) -> Live:
    return live_duels(game)


# ---------------------------------------------------------------------------- 429


def test_429_guess_rate_limit(game: Game, live: Live) -> None:
    url = f"/v1/tournaments/{live.tid}/guesses"
    statuses = [
        game.post(url, live.waiting, json={"row": 0, "word": "crane"}).status_code
        for _ in range(30)
    ]
    assert statuses == [409] * 30
    error = assert_error(
        game.post(url, live.waiting, json={"row": 0, "word": "crane"}), 429, "too_many_requests"
    )
    r = game.post(url, live.waiting, json={"row": 0, "word": "crane"})
    retry_after = int(r.headers["Retry-After"])
    assert 1 <= retry_after <= 10 and error["message"]
    # Other players are not limited; the limited one is free again in the next window.
    assert game.post(url, live.to_play, json={"row": 1, "word": "crane"}).status_code == 409
    game.clock.advance(retry_after * 1000)
    assert game.post(url, live.waiting, json={"row": 0, "word": "crane"}).status_code == 409


def test_429_player_creation_rate_limit(game: Game) -> None:
    """Creations per address (api/service/creation_limits.py), a 429 that says so."""
    same = {"environ_base": {"REMOTE_ADDR": "192.0.2.1"}}
    for _ in range(ADDRESS.per):
        assert game.post("/v1/players", **same).status_code == 201
    r = game.post("/v1/players", **same)
    assert assert_error(r, 429, "too_many_new_players")["details"]["scope"] == "address"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert game.post("/v1/players", environ_base={"REMOTE_ADDR": "192.0.2.2"}).status_code == 201
    game.clock.advance(int(r.headers["Retry-After"]) * 1000)
    assert game.post("/v1/players", **same).status_code == 201


# ---------------------------------------------------------------------------- 503


def test_503_with_retry_after_when_storage_is_unavailable(
    make_app: Any, clock: FakeClock, settings: Settings
) -> None:
    broken = BrokenRepo(InMemoryRepository(), retry_after=7)
    app: Flask = make_app(broken)
    game = game_for(app, clock, broken)
    players = game.new_players(8)
    tid = game.queue(players)
    group = game.post("/v1/groups", players[0], json={"language": "en"}).get_json()
    broken.down = True
    p = players[0]
    for method, url, body in (
        ("POST", "/v1/players", None),
        ("GET", "/v1/health", None),
        ("GET", "/v1/me", None),
        ("PATCH", "/v1/me", {"nickname": "Someone Else"}),
        ("POST", "/v1/queue", {"language": "en"}),
        ("GET", "/v1/queue", None),
        ("DELETE", "/v1/queue", None),
        ("GET", "/v1/lobbies/l_0000000000000000", None),
        ("POST", "/v1/groups", {"language": "en"}),
        ("POST", "/v1/groups/join", {"invite_code": group["invite_code"]}),
        ("GET", f"/v1/groups/{group['id']}", None),
        ("POST", f"/v1/groups/{group['id']}/start", None),
        ("POST", f"/v1/groups/{group['id']}/invite", None),
        ("DELETE", f"/v1/groups/{group['id']}/members/{p.id}", None),
        ("GET", f"/v1/tournaments/{tid}/state", None),
        ("POST", f"/v1/tournaments/{tid}/guesses", {"row": 0, "word": "crane"}),
        ("POST", f"/v1/tournaments/{tid}/leave", None),
        ("GET", f"/v1/tournaments/{tid}/duels/r1d1", None),
    ):
        r = game.call(method, url, p, json=body)
        assert_error(r, 503, "storage_unavailable")
        assert r.headers["Retry-After"] == "7", (method, url)
    # Documents that need no storage still work; and everything is back once storage is.
    assert game.get("/openapi.json").status_code == 200
    assert game.get("/v1/languages").status_code == 200
    broken.down = False
    assert game.get("/v1/health").status_code == 200
    assert game.state(p, tid)["phase"] == "intro"


class AlwaysConflicting(RepoProxy):
    """Every commit loses the race (another writer always got there first)."""

    def commit(self, writes):  # type: ignore[no-untyped-def]
        raise StorageConflict("someone else wrote first (test)")


def test_503_busy_when_every_attempt_conflicts(make_app: Any, clock: FakeClock) -> None:
    inner = InMemoryRepository()
    game = game_for(make_app(inner), clock, inner)
    players = game.new_players(8)
    tid = game.queue(players)
    clock.advance(TIMING.intro_ms)
    duel = game.state(players[0], tid)["duel"]
    to_play = next(p for p in players if p.id == duel["to_play"])
    busy = game_for(make_app(AlwaysConflicting(inner)), clock, inner)
    word = fillers("en", duel["word_length"])[0]
    r = busy.guess(to_play, tid, 0, word)
    assert_error(r, 503, "busy")
    assert r.headers["Retry-After"] == "1"
    # Nothing was written; the same guess goes through once the contention is gone.
    assert game.guess(to_play, tid, 0, word).status_code == 200
