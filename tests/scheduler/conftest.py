"""Fixtures for the sweep: a service on DynamoDB (moto) with a clock the test moves."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from api import bootstrap
from api.config import Settings
from api.service import Service
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.records import PlayerRecord
from api.storage.repository import Repository, Write
from core.timing import Timing
from tests.conftest import MakeTable

TIMING = Timing(turn_ms=10_000, intro_ms=2_000, reconnect_ms=60_000)
T0 = 1_760_000_000_000


class Clock:
    def __init__(self) -> None:
        self.ms = T0

    def __call__(self) -> int:
        return self.ms


class Interceptor:
    """Wraps a repository; `before_commit` runs once before the next commit, if set."""

    def __init__(self, inner: Repository) -> None:
        self.inner = inner
        self.before_commit: Callable[[Sequence[Write]], None] | None = None
        self.commits = 0

    def commit(self, writes: Sequence[Write]) -> None:
        hook, self.before_commit = self.before_commit, None
        if hook is not None:
            hook(writes)
        self.inner.commit(writes)
        self.commits += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def dynamo(make_table: MakeTable) -> DynamoRepository:
    return make_table("moto", Settings(timing=TIMING, rate_limits=False))


@pytest.fixture
def repo(dynamo: DynamoRepository) -> Interceptor:
    return Interceptor(dynamo)


@pytest.fixture
def make_service(
    repo: Interceptor, clock: Clock, dynamo: DynamoRepository
) -> Callable[[int], Service]:
    # These tests jump the clock by many minutes with no sweep in between, where production
    # sweeps every minute: storage's heartbeat would read each jump as an outage and pause
    # (tests/api/test_outages.py covers outages, with the sweep and without).
    settings = replace(dynamo.settings, outage_gap_ms=0)

    def make(seed: int = 1) -> Service:
        return bootstrap.service(settings, repo, clock=clock, seed=seed)

    return make


def eight_players_in_a_tournament(service: Service) -> tuple[list[PlayerRecord], str]:
    players = [service.players.create("test")[0] for _ in range(8)]
    lobby = None
    for p in players:
        lobby = service.queue.join(p, "en")
    assert lobby is not None and lobby.tournament_id is not None
    return players, lobby.tournament_id
