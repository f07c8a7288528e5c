"""The house bots' tests' library (D18; tests/api/test_house_bots_*.py): settings with house
bots on at the real timers, the deployed sweep's cadence, and the small steps those tests share
(a queue poll, the tournament a player was seated in, the house bots among players, a person who
leaves at once while only the sweep runs). The `bgame` fixture is in tests/api/conftest.py.
A library, not a test module.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from api.config import Settings
from api.service import Service
from api.storage.records import PlayerRecord
from api.storage.repository import Repository
from core.timing import Timing
from tests.api.game import Game, Player

FILL_MS = 15_000
REAL = Timing()  # R10, R2, R21: 30 s turns, 6 s intros, 60 s to come back
SWEEP_MS = 60_000  # the deployed schedule (infra: rate(1 minute))


def bot_settings(**changes: Any) -> Settings:
    base: dict[str, Any] = {"timing": REAL, "house_bots": True, "bot_fill_ms": FILL_MS}
    return Settings(**{**base, **changes})


def service_of(game: Game) -> Service:
    service: Service = game.client.application.extensions["service"]
    return service


def house_players(repo: Repository, ids: list[str]) -> list[PlayerRecord]:
    return [p for p in repo.get_players(ids) if p.house]


def poll(game: Game, player: Player) -> dict[str, Any]:
    r = game.get("/v1/queue", player)
    assert r.status_code == 200, r.get_json()
    body: dict[str, Any] = r.get_json()
    return body


def started(game: Game, player: Player) -> str:
    tid = game.me(player)["tournament_id"]
    assert tid is not None
    return str(tid)


def flask_call(client: FlaskClient) -> Any:
    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, dict, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = client.open(path, method=method, json=body, headers=headers)
        return r.status_code, {k.lower(): v for k, v in r.headers.items()}, r.get_json(silent=True)

    return call


def play_out_with_the_sweep(game: Game, person: Player, tid: str) -> None:
    """The person leaves at once (R20); only the sweep runs, once a minute, until the bots
    alone have ended the tournament (D18: at the close of that round)."""
    r = game.leave(person, tid)
    assert r.status_code == 200, r.get_json()
    for _ in range(30):
        if game.stored(tid).finished_at is not None:
            return
        game.clock.advance(SWEEP_MS)
        service_of(game).sweep()
    raise AssertionError("the bots never ended the tournament")
