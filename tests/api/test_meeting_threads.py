"""D15 with real threads against a real server: players who queue at the same moment start one
tournament within 5 s (8 → 1, 24 → 3), as the local stack runs (the sweep every second, no
bots), each client polling `GET /v1/queue` once a second like the browser's lobby screen.

Against the in-memory store with a 300 ms index lag (the wall clock's), and against DynamoDB
Local (conditional writes and transactions as in AWS; its index does not lag). Not on moto, which
is one request at a time here and far slower than either.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from werkzeug.serving import make_server

from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from api.storage.repository import Repository
from scheduler import loop
from tests.api.conftest import TIMING
from tests.conftest import MakeTable

DEADLINE_S = 5.0
POLL_S = 1.0  # the browser's lobby screen polls once a second


@dataclass
class Outcome:
    tournament_id: str | None = None
    seconds: float | None = None
    errors: list[str] | None = None


def _call(conn: http.client.HTTPConnection, method: str, url: str, token: str, body: Any = None):
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn.request(method, url, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else None)


def _client(port: int, token: str, barrier: threading.Barrier, out: Outcome) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    errors: list[str] = []
    barrier.wait()
    started = time.monotonic()
    status, body = _call(conn, "POST", "/v1/queue", token, {"language": "en"})
    if status != 201:
        errors.append(f"join {status} {body}")
    while time.monotonic() - started < DEADLINE_S + 2:
        status, me = _call(conn, "GET", "/v1/me", token)
        if status == 200 and me["tournament_id"] is not None:
            out.tournament_id, out.seconds = me["tournament_id"], time.monotonic() - started
            break
        time.sleep(POLL_S)
        status, body = _call(conn, "GET", "/v1/queue", token)
        if status != 200:
            errors.append(f"poll {status} {body}")
    conn.close()
    out.errors = errors


@pytest.fixture(params=["memory", "dynamodb-local"])
def store(request: pytest.FixtureRequest, make_table: MakeTable) -> Repository:
    if request.param == "memory":
        return InMemoryRepository(index_lag_ms=300)  # the wall clock's
    return make_table("dynamodb-local", Settings(timing=TIMING))


@pytest.fixture
def server(store: Repository) -> Iterator[tuple[int, Service]]:
    settings = Settings(timing=TIMING, rate_limits=False)
    service = Service(Context(store, settings))
    http_server = make_server("127.0.0.1", 0, create_app(service), threaded=True)
    serving = threading.Thread(target=http_server.serve_forever, daemon=True)
    serving.start()
    stop_sweep = loop.start(service, 1.0)  # as `make run` does
    yield http_server.server_port, service
    stop_sweep.set()
    http_server.shutdown()
    serving.join()


def _queue_together(port: int, service: Service, n: int) -> list[Outcome]:
    tokens = [service.players.create("test")[1] for _ in range(n)]
    barrier = threading.Barrier(n)
    outcomes = [Outcome() for _ in range(n)]
    threads = [
        threading.Thread(target=_client, args=(port, token, barrier, out))
        for token, out in zip(tokens, outcomes, strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


@pytest.mark.parametrize("players", [8, 24])
def test_d15_players_who_queue_in_the_same_second_start_together_within_5s(
    server: tuple[int, Service], players: int
) -> None:
    port, service = server
    outcomes = _queue_together(port, service, players)
    assert [o.errors for o in outcomes] == [[]] * players
    games = Counter(o.tournament_id for o in outcomes)
    assert None not in games, games
    assert sorted(games.values()) == [8] * (players // 8)
    slowest = max(o.seconds or 0 for o in outcomes)
    assert slowest <= DEADLINE_S, slowest
    for tid in games:  # each tournament holds exactly its 8 players, none twice (D14)
        record = service.ctx.repo.get_tournament(str(tid))
        assert record is not None and len({p.id for p in record.tournament.players}) == 8
