"""The race suite's stack: the API on a real threaded werkzeug server, over DynamoDB Local, with a
clock the test holds still during each burst of concurrent requests and moves between them.

A burst starts every operation on its own thread and releases them together (a barrier), so
they reach the server, and DynamoDB Local, at the same instant. Each operation's answer is kept;
the tests then check that no acknowledged write was lost and that the stored state is what a
serial replay of the acknowledged commands gives.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from api import bootstrap
from api.bots.http import Http, Reply
from api.config import Settings
from api.http.app import create_app
from api.loadtest.stack import serve
from api.service import Service
from api.storage.dynamodb.repository import DynamoRepository
from core.timing import Timing
from tests.api.clock import FakeClock
from tests.api.conftest import _quiet_request_logs  # noqa: F401 - autouse here too
from tests.conftest import MakeTable

T0 = 1_770_000_000_000
# Turns long enough that only the test's clock moves expire them; no disconnects (D9) at all.
TIMING = Timing(turn_ms=8_000, intro_ms=1_000, reconnect_ms=3_600_000)
Operation = Callable[[Http], Any]


@dataclass
class Answer:
    """One operation of a burst: what it was and what the server said (or raised)."""

    label: str
    result: Any = None
    error: BaseException | None = None


@dataclass
class RaceStack:
    url: str
    service: Service
    repo: DynamoRepository
    clock: FakeClock
    rng: random.Random
    operations: int = 0  # run concurrently, over the whole test
    statuses: Counter[str] = field(default_factory=Counter)

    def client(self) -> Http:
        return Http(self.url, timeout=60)

    def call(self, http: Http, method: str, route: str, body: Any = None, **kw: Any) -> Reply:
        """One request (`route` in Flask's spelling, filled from `params`), its answer counted
        under `METHOD route status [error code]`."""
        reply = http.request(method, route, body=body, **kw)
        error = reply.body.get("error", {}) if isinstance(reply.body, dict) else {}
        self.statuses[f"{method} {route} {reply.status} {error.get('code', '')}".strip()] += 1
        assert reply.status < 500, (method, route, reply.status, reply.body)
        return reply

    def burst(self, operations: list[tuple[str, Operation]]) -> list[Answer]:
        """Run every operation on a thread of its own, all released at the same instant."""
        self.rng.shuffle(operations)
        gate = threading.Barrier(len(operations))
        answers = [Answer(label) for label, _ in operations]

        def run(i: int, operation: Operation) -> None:
            http = self.client()
            try:
                gate.wait(timeout=30)
                answers[i].result = operation(http)
            except BaseException as exc:
                answers[i].error = exc
            finally:
                http.close()

        threads = [
            threading.Thread(target=run, args=(i, op), daemon=True)
            for i, (_, op) in enumerate(operations)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
            assert not t.is_alive(), "an operation hung"
        failed = [(a.label, a.error) for a in answers if a.error is not None]
        assert not failed, failed
        self.operations += len(operations)
        return answers


@pytest.fixture
def race_stack(make_table: MakeTable) -> Iterator[RaceStack]:
    settings = Settings(timing=TIMING, rate_limits=False)
    # Every request of a burst holds a connection to DynamoDB Local at the same time.
    repo = make_table("dynamodb-local", settings, max_pool_connections=256)
    clock = FakeClock(T0)
    service = bootstrap.service(repo.settings, repo, clock=clock, seed=11)
    server = serve(create_app(service))
    try:
        yield RaceStack(server.url, service, repo, clock, random.Random(5))
    finally:
        server.close()
