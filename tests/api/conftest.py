"""Fixtures for the API tests, in the style of Flask's testing docs: an app factory over a
service with a fake clock and seeded randomness, a test client, and a `game` driver.

The repository is the in-memory fake unless a test parametrizes `repo` indirectly with
"dynamo": then it is a DynamoRepository on a fresh table of moto (tests/conftest.py: one server
per session, one table per test), or with "dynamodb-local": the same on DynamoDB Local.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import bootstrap
from api.config import Settings
from api.http import logs
from api.http.app import create_app
from api.service import Service
from api.storage.memory import InMemoryRepository
from api.storage.repository import Repository
from core.timing import Timing
from tests.api.clock import FakeClock
from tests.api.game import Game
from tests.api.house_bots import bot_settings
from tests.conftest import MakeTable

# Short game timers (the clock is fake anyway: nothing ever sleeps).
TIMING = Timing(turn_ms=8_000, intro_ms=4_000, reconnect_ms=30_000)
T0 = 1_750_000_000_000  # a fixed, realistic epoch in ms
SEED = 1234

BOTH = pytest.mark.parametrize("repo", ["memory", "dynamo"], indirect=True)
# The fake store, moto and DynamoDB Local.
EVERY_STORE = pytest.mark.parametrize("repo", ["memory", "dynamo", "dynamodb-local"], indirect=True)


@pytest.fixture(autouse=True, scope="session")
def _quiet_request_logs() -> Iterator[None]:
    """One JSON line per request is a lot of captured output: keep warnings only.

    test_logs.py turns INFO back on for itself.
    """

    logger = logs.configure()
    level = logger.level
    logger.setLevel(logging.WARNING)
    yield
    logger.setLevel(level)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def settings() -> Settings:
    """People only: these tests wait in lobbies as long as they like. House bots (D18, on by
    default) are tests/api/test_house_bots_*.py's (`bgame`, below)."""
    return Settings(timing=TIMING, house_bots=False)


@pytest.fixture
def make_dynamo(make_table: MakeTable) -> Callable[[Settings], Repository]:
    """DynamoRepositories (moto) on new tables (rate-limit counters and all start empty)."""
    return lambda settings: make_table("moto", settings)


@pytest.fixture
def repo(
    request: pytest.FixtureRequest,
    settings: Settings,
    make_dynamo: Callable[[Settings], Repository],
    make_table: MakeTable,
) -> Repository:
    kind = getattr(request, "param", "memory")
    if kind == "memory":
        return InMemoryRepository()
    if kind == "dynamodb-local":
        return make_table("dynamodb-local", settings)
    assert kind == "dynamo", kind
    return make_dynamo(settings)


@pytest.fixture
def make_app(settings: Settings, clock: FakeClock) -> Callable[..., Flask]:
    """The app factory: `make_app(repo, settings=..., seed=...)`."""

    def make(repo: Repository, *, settings: Settings = settings, seed: int = SEED) -> Flask:
        app = create_app(bootstrap.service(settings, repo, clock=clock, seed=seed))
        app.config["TESTING"] = True
        return app

    return make


@pytest.fixture
def app(make_app: Callable[..., Flask], repo: Repository) -> Flask:
    return make_app(repo)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def service(app: Flask) -> Service:
    svc: Service = app.extensions["service"]
    return svc


@pytest.fixture
def game(client: FlaskClient, clock: FakeClock, repo: Repository) -> Game:
    return Game(client, clock, repo)


# House bots on (D18) at the real timers, for tests/api/test_house_bots_*.py.
@pytest.fixture
def bots_app(make_app: Callable[..., Flask], repo: Repository) -> Flask:
    return make_app(repo, settings=bot_settings())


@pytest.fixture
def bgame(bots_app: Flask, clock: FakeClock, repo: Repository) -> Game:
    return Game(bots_app.test_client(), clock, repo)


def game_for(app: Flask, clock: FakeClock, repo: Repository, **kw: Any) -> Game:
    """A driver for an app a test built itself."""
    return Game(app.test_client(), clock, repo, **kw)
