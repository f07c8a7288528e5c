"""Settings for every suite, and the DynamoDB stores the suites share.

Two real DynamoDB engines speak HTTP to the tests, each started once per session and only if a
test asks for it: moto (in this process, one request at a time: api/local/moto_server.py) and
Amazon DynamoDB Local (a Java child process, in memory; `make dynamodb-local` fetches it). Every
test gets tables of its own (`make_table`), dropped when it ends.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from api.config import Settings
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.metering.meter import Meter

# CI runs the same examples every time (a red build always means a change broke something);
# developers' runs explore new examples and keep failures in .hypothesis/.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

STORES = ("moto", "dynamodb-local")  # the DynamoDB engines tests can ask for, by name


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    from api.local.moto_server import MotoServer

    server = MotoServer()  # sets dummy credentials when there are none
    yield server.endpoint
    server.stop()


@pytest.fixture(scope="session")
def dynamodb_local_endpoint() -> Iterator[str]:
    from api.local.dynamodb_local import MEMORY, QUICK_START, DynamoDBLocal
    from api.local.moto_server import dummy_credentials

    dummy_credentials()
    with DynamoDBLocal(MEMORY, jvm_options=QUICK_START) as local:
        assert local.endpoint is not None
        yield local.endpoint


def store_settings(request: pytest.FixtureRequest, store: str, base: Settings) -> Settings:
    """`base` pointed at a new table name (not created) of the session's `store`."""
    endpoint = request.getfixturevalue(f"{store.replace('-', '_')}_endpoint")
    return replace(
        base,
        table_name=f"test-{uuid.uuid4().hex[:12]}",
        dynamodb_endpoint=endpoint,
        region="us-east-1",
        store=store,
    )


MakeTable = Callable[..., DynamoRepository]


@pytest.fixture(scope="session")
def botocore_session() -> Any:
    """One botocore session for every test repository: a client each, made in milliseconds."""
    from botocore.session import get_session  # type: ignore[import-untyped]

    return get_session()


@pytest.fixture
def make_table(request: pytest.FixtureRequest, botocore_session: Any) -> Iterator[MakeTable]:
    """`make_table(store="moto", settings=Settings(), **options)`: a DynamoRepository (with
    `options`) on a new table of that store (rate-limit counters and all start empty), dropped
    after the test."""
    made: list[DynamoRepository] = []

    def make(
        store: str = "moto", settings: Settings | None = None, **options: Any
    ) -> DynamoRepository:
        # One repository (one botocore client, the slow part) creates, uses and drops the table.
        own = store_settings(request, store, settings or Settings())
        options.setdefault("meter", Meter())  # the tests of the billing read it
        repository = DynamoRepository(own, botocore_session=botocore_session, **options)
        repository.create_table()
        made.append(repository)
        return repository

    yield make
    for repository in made:
        repository.delete_table()  # keep the stores' memory flat
