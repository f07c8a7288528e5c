"""Settings for every suite, the lanes the tests run in, and the DynamoDB stores they share.

Lanes: every test is marked by where it lives (LANES) and by what it runs on (a `dynamodb-local`
parameter), never by hand: `browser` (Chromium, tests/web), `engine` (DynamoDB Local, Java),
`race` (concurrency through HTTP), `slow` (a package build, schemathesis over the whole document,
bots playing whole tournaments in real time).
`pytest --fast` (`make check`) leaves out the browser, the engine and the slow ones, and runs the
state machines with fewer examples; `make test` runs everything at full strength.

Two real DynamoDB engines speak HTTP to the tests, each started once per session and only if a
test asks for it: moto (in this process, one request at a time: api/local/moto_server.py) and
Amazon DynamoDB Local (a Java child process, in memory; `make dynamodb-local` fetches it). Every
test gets tables of its own (`make_table`), dropped when it ends.
"""

from __future__ import annotations

import io
import logging
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

from api.config import Settings
from api.http import logs
from api.storage.dynamodb.repository import DynamoRepository

# CI runs the same examples every time (a red build always means a change broke something);
# developers' runs explore new examples and keep failures in .hypothesis/.
hypothesis_settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

STORES = ("moto", "dynamodb-local")  # the DynamoDB engines tests can ask for, by name

# Markers by place: a folder, a file, or one test (`file::name`), relative to the checkout.
LANES: dict[str, tuple[str, ...]] = {
    "browser": ("tests/web/",),
    "engine": (
        "tests/races/",
        "tests/fairplay/",
        "tests/client/test_generated_client.py",
        "tests/storage/test_dynamodb_local.py::test_make_run_keeps_players_groups_and_tournaments",
        "tests/storage/test_store_heals.py",  # `make run` on DynamoDB Local, killed and full
    ),
    "race": ("tests/races/",),
    "slow": (
        "tests/deploy/test_package.py",
        "tests/api/test_schemathesis.py",
        "tests/bots/test_tournaments.py",  # bots play whole tournaments in real time
    ),
}
FAST_OUT = ("browser", "engine", "slow")  # what the fast lane leaves out
FAST_SHARE = 5  # the fast lane runs a state machine's examples divided by this


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fast",
        action="store_true",
        help=f"the fast lane: no {', '.join(FAST_OUT)} tests, lighter state machines",
    )


def _lanes(nodeid: str) -> set[str]:
    return {
        lane for lane, places in LANES.items() if any(nodeid.startswith(place) for place in places)
    }


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The fast lane does not even import what it would leave out whole (a folder, a file)."""
    if not config.getoption("--fast"):
        return None
    place = collection_path.relative_to(config.rootpath).as_posix()
    place += "/" if collection_path.is_dir() else ""
    return True if set(_lanes(place)) & set(FAST_OUT) else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    fast = config.getoption("--fast")
    kept, left = [], []
    for item in items:
        lanes = _lanes(item.nodeid)
        params = getattr(item, "callspec", None)
        if params is not None and "dynamodb-local" in params.params.values():
            lanes.add("engine")
        for lane in sorted(lanes):
            item.add_marker(lane)
        if fast and lanes & set(FAST_OUT):
            left.append(item)
            continue
        kept.append(item)
        if fast:
            _lighter(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def _lighter(item: pytest.Item) -> None:
    """A hypothesis state machine with FAST_SHARE times fewer examples (its TestCase's settings,
    hypothesis's documented knob); other property tests keep theirs."""
    machine = getattr(item, "cls", None)
    chosen = getattr(machine, "settings", None)
    if isinstance(chosen, hypothesis_settings) and not getattr(machine, "_lighter", False):
        examples = max(1, chosen.max_examples // FAST_SHARE)
        machine.settings = hypothesis_settings(chosen, max_examples=examples)  # type: ignore[union-attr]
        machine._lighter = True  # type: ignore[union-attr]


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    from api.local.moto_server import MotoServer

    server = MotoServer()  # sets dummy credentials when there are none
    yield server.endpoint
    server.stop()


@pytest.fixture(scope="session")
def dynamodb_local_endpoint(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.config.getoption("--fast"):
        pytest.fail(
            f"{request.node.nodeid} needs DynamoDB Local, which the fast lane leaves out: "
            "add its place to LANES['engine'] in tests/conftest.py"
        )
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
        repository = DynamoRepository(own, botocore_session=botocore_session, **options)
        repository.create_table()
        made.append(repository)
        return repository

    yield make
    for repository in made:
        repository.delete_table()  # keep the stores' memory flat


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """The app's JSON log lines (api/http/logs.py) at info and above, as written."""
    logger = logging.getLogger("wordle_tournament")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
