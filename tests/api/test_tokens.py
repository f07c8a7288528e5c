"""Tokens end (R25): POST /v1/me/token rotates (the old token dies at once), DELETE /v1/me/token
signs out (the token dies; the player stays, unreachable)."""

from __future__ import annotations

import threading
from typing import Any

from tests.api.conftest import BOTH, TIMING, game_for
from tests.api.error_checks import assert_error
from tests.api.game import Game, Player


def rotate(game: Game, player: Player) -> Any:
    return game.post("/v1/me/token", player)


@BOTH
def test_r25_rotation_gives_a_new_token_and_kills_the_old_one_at_once(game: Game) -> None:
    p = game.new_player()
    r = rotate(game, p)
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["id"] == p.id and body["nickname"] == p.nickname
    assert body["token"] != p.token and body["token"].startswith(f"{p.id}.")
    fresh = Player(p.id, body["token"], p.nickname)
    # At once: the very next request with the old token is refused, on every route.
    assert_error(game.get("/v1/me", p), 401, "unauthorized")
    assert_error(game.post("/v1/queue", p, json={"language": "en"}), 401)
    assert_error(rotate(game, p), 401)
    assert game.me(fresh)["id"] == p.id
    # Rotating again works with the new token and kills it in turn.
    again = rotate(game, fresh)
    assert again.status_code == 201
    assert_error(game.get("/v1/me", fresh), 401)
    assert game.get("/v1/me", Player(p.id, again.get_json()["token"], "")).status_code == 200


@BOTH
def test_r25_sign_out_kills_the_token_and_keeps_the_player(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    game.clock.advance(TIMING.intro_ms)
    gone = players[3]
    r = game.delete("/v1/me/token", gone)
    assert r.status_code == 204 and r.get_data() == b""
    for method, url in (
        ("GET", "/v1/me"),
        ("GET", f"/v1/tournaments/{tid}/state"),
        ("POST", "/v1/me/token"),
        ("DELETE", "/v1/me/token"),
    ):
        assert_error(game.call(method, url, gone), 401, "unauthorized")
    # The player still exists: the others see it in the tournament, with its rating.
    state = game.state(players[0], tid)
    assert any(p["id"] == gone.id and p["status"] == "playing" for p in state["players"])
    stored = game.repo.get_player(gone.id)
    assert stored is not None and stored.tournament_id == tid


@BOTH
def test_r25_two_rotations_with_one_token_race_and_exactly_one_wins(
    make_app: Any, repo: Any, clock: Any
) -> None:
    """Real threads, one store: the write is conditional, so the loser finds the token gone."""
    game = game_for(make_app(repo), clock, repo)
    p = game.new_player()
    app = game.client.application
    results: list[int] = []
    barrier = threading.Barrier(4)

    def go() -> None:
        client = app.test_client()
        barrier.wait()
        results.append(client.post("/v1/me/token", headers=p.headers).status_code)

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results).count(201) == 1, results
    assert set(results) == {201, 401}, results
