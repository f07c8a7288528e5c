"""The repository under test: the in-memory fake, moto and DynamoDB Local (one table per test)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from api.config import Settings
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.memory import InMemoryRepository
from api.storage.metering.meter import Meter
from api.storage.repository import Repository
from tests.conftest import STORES, MakeTable, store_settings
from tests.storage.local_stack import Stack


@pytest.fixture(params=STORES)
def dynamo_store(request: pytest.FixtureRequest) -> str:
    store: str = request.param
    return store


@pytest.fixture
def dynamo_settings(request: pytest.FixtureRequest, dynamo_store: str) -> Settings:
    """Settings for a table of the store that does not exist yet."""
    return store_settings(request, dynamo_store, Settings())


@pytest.fixture
def dynamo(make_table: MakeTable, dynamo_store: str) -> DynamoRepository:
    """With a capacity meter: the tests of the billing read it."""
    return make_table(dynamo_store, meter=Meter())


@pytest.fixture(params=["memory", *STORES])
def repo(request: pytest.FixtureRequest, make_table: MakeTable) -> Repository:
    if request.param == "memory":
        return InMemoryRepository()
    return make_table(request.param)


@pytest.fixture
def stacks() -> Iterator[list[Stack]]:
    """`make run`s a test started (tests/storage/local_stack.py): killed if still running."""
    started: list[Stack] = []
    yield started
    for stack in started:
        if stack.process.poll() is None:
            stack.process.kill()
            stack.process.wait()
