"""The API served over real HTTP on a free port, over the in-memory repository (fast)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from flask import Flask

from api.config import Settings
from api.http.app import create_app
from api.loadtest.stack import Server, serve
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from core.timing import Timing
from scheduler import loop

BOT_KEY = "test-bot-key"


def fast_settings(**changes: object) -> Settings:
    """Tiny timers: a turn under a second, so whole tournaments fit in seconds."""
    base = {
        "timing": Timing(turn_ms=700, intro_ms=50, reconnect_ms=30_000),
        "rate_limits": False,
        "bot_key": BOT_KEY,
    }
    base.update(changes)
    return Settings(**base)  # type: ignore[arg-type]


@dataclass
class Running:
    url: str
    app: Flask
    service: Service
    repo: InMemoryRepository


@pytest.fixture
def api_server() -> Iterator[Callable[..., Running]]:
    """start(settings, before_serving=callback(app, service)) → a running API; stopped after."""
    servers: list[Server] = []
    stops = []

    def start(
        settings: Settings | None = None,
        before_serving: Callable[[Flask, Service], None] | None = None,
    ) -> Running:
        settings = settings or fast_settings()
        repo = InMemoryRepository()
        service = Service(Context(repo, settings))
        app = create_app(service)
        if before_serving is not None:
            before_serving(app, service)
        stops.append(loop.start(service, interval_s=0.2))
        server = serve(app)
        servers.append(server)
        return Running(server.url, app, service, repo)

    yield start
    for stop in stops:
        stop.set()
    for server in servers:
        server.close()
