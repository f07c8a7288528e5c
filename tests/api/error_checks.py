"""Checks shared by the error tests: the error body's shape, a tournament in its first duels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.api.conftest import TIMING
from tests.api.game import Game, Player


def assert_error(response: Any, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    if code is not None:
        assert error["code"] == code, error
    return error


@dataclass
class Live:
    tid: str
    players: list[Player]
    to_play: Player  # whose turn it is in players[0]'s duel
    waiting: Player  # their opponent
    duel: dict


def live_duels(game: Game) -> Live:
    """A tournament whose round-1 duels have just started."""
    players = game.new_players(8)
    tid = game.queue(players)
    game.clock.advance(TIMING.intro_ms)
    duel = game.state(players[0], tid)["duel"]
    by = {p.id: p for p in players}
    to_play = by[duel["to_play"]]
    waiting = by[next(pid for pid in duel["players"] if pid != to_play.id)]
    return Live(tid, players, to_play, waiting, duel)
