"""One moto server for the session (real HTTP, as in AWS), a fresh table per test."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from api.config import Settings
from api.storage.dynamo import DynamoRepository
from api.storage.local import start_local_dynamodb, stop_local_dynamodb
from api.storage.memory import InMemoryRepository
from api.storage.repository import Repository


@pytest.fixture(scope="session")
def dynamodb_endpoint() -> Iterator[str]:
    endpoint = start_local_dynamodb()  # sets dummy credentials when there are none
    yield endpoint
    stop_local_dynamodb()


@pytest.fixture
def dynamo_settings(dynamodb_endpoint: str) -> Settings:
    return Settings(
        table_name=f"test-{uuid.uuid4().hex[:12]}",
        dynamodb_endpoint=dynamodb_endpoint,
        region="us-east-1",
    )


@pytest.fixture
def dynamo(dynamo_settings: Settings) -> Iterator[DynamoRepository]:
    # One repository (one botocore client, the slow part) creates, uses and drops the table.
    repository = DynamoRepository(dynamo_settings)
    repository.create_table()
    yield repository
    repository.delete_table()  # keep moto's memory flat


@pytest.fixture(params=["memory", "dynamo"])
def repo(request: pytest.FixtureRequest) -> Repository:
    if request.param == "memory":
        return InMemoryRepository()
    repository: Repository = request.getfixturevalue("dynamo")
    return repository
