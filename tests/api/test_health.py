"""GET /v1/health names the store that answers for DynamoDB and its table, and is a 503 naming
the cause when the store cannot be read or written (its write at most every 30 s)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.config import Settings
from api.service.health import DOUBT_EVERY_MS, RETRY_EVERY_MS, WRITE_EVERY_MS
from api.storage.memory import InMemoryRepository
from api.storage.repository import DISK_FULL, THROTTLED, UNREACHABLE, Repository, Unavailable
from tests.api.clock import FakeClock
from tests.api.conftest import game_for
from tests.api.error_checks import assert_error
from tests.api.repos import BrokenRepo, RepoProxy

STORES = {"memory": "memory", "dynamo": "moto", "dynamodb-local": "dynamodb-local"}


@pytest.mark.parametrize("repo", list(STORES), indirect=True)
def test_health_names_the_store_and_the_table(
    request: pytest.FixtureRequest, client: FlaskClient, repo: Repository
) -> None:
    r = client.get("/v1/health")
    assert r.status_code == 200
    body = r.get_json()
    assert body["status"] == "ok" and isinstance(body["time"], int)
    assert body["store"] == STORES[request.node.callspec.params["repo"]]
    assert body["table"] == getattr(repo, "table_name", None)
    assert (body["table"] is None) == (body["store"] == "memory")
    assert body["written_at"] == body["time"]  # the first check writes
    assert body["poll_passes"] == "per_process"  # no WT_POLL_PASS_KEY in the tests


def test_health_says_whether_poll_passes_are_shared(make_app: Any, clock: FakeClock) -> None:
    """docs/deploy.md: a stage without WT_POLL_PASS_KEY still works, but each instance
    honours only its own passes; the health check shows which it is."""
    shared = make_app(InMemoryRepository(), settings=Settings(poll_pass_key="k" * 32))
    assert shared.test_client().get("/v1/health").get_json()["poll_passes"] == "shared"


# ---------------------------------------------------------------------------- a store that fails


class Writes(RepoProxy):
    """Counts the health item's writes; `failing` makes them fail with that cause."""

    def __init__(self, inner: Repository) -> None:
        super().__init__(inner)
        self.probes = 0
        self.failing: str | None = None

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "probe":
            self.probes += 1
            if self.failing is not None:
                retry = 30 if self.failing == DISK_FULL else 1
                raise Unavailable(f"cannot write ({self.failing}, test)", retry, self.failing)
        return super()._call(name, *args, **kwargs)


def test_health_writes_the_store_at_most_every_30_s_per_instance(
    make_app: Any, clock: FakeClock
) -> None:
    repo = Writes(InMemoryRepository())
    client = make_app(repo).test_client()
    for _ in range(20):
        assert client.get("/v1/health").status_code == 200
    assert repo.probes == 1
    first = client.get("/v1/health").get_json()["written_at"]
    clock.advance(WRITE_EVERY_MS - 1)
    assert client.get("/v1/health").get_json()["written_at"] == first and repo.probes == 1
    clock.advance(1)
    assert client.get("/v1/health").get_json()["written_at"] == clock.ms and repo.probes == 2
    # Another instance (app) writes on its own schedule.
    assert make_app(repo).test_client().get("/v1/health").status_code == 200
    assert repo.probes == 3


@pytest.mark.parametrize("cause", [DISK_FULL, THROTTLED, UNREACHABLE])
def test_health_is_a_503_naming_why_the_store_cannot_be_written(
    make_app: Any, clock: FakeClock, cause: str, log_lines: io.StringIO
) -> None:
    repo = Writes(InMemoryRepository())
    game = game_for(make_app(repo), clock, repo)
    player = game.new_player()
    repo.failing = cause
    clock.advance(WRITE_EVERY_MS)
    r = game.get("/v1/health")
    error = assert_error(r, 503, "storage_unavailable")
    assert error["details"] == {"cause": cause, "store": "memory", "table": None}
    assert r.headers["Retry-After"] == ("30" if cause == DISK_FULL else "1")
    assert game.get("/v1/me", player).status_code == 200  # reads still work
    [line] = [json.loads(x) for x in log_lines.getvalue().splitlines() if "/v1/health" in x]
    assert (line["status"], line["cause"], line["level"]) == (503, cause, "error")
    # Failing, it writes again 5 s on (not on every check); then it is healthy once more.
    repo.failing = None
    assert game.get("/v1/health").status_code == 503 and repo.probes == 1
    clock.advance(RETRY_EVERY_MS)
    assert game.get("/v1/health").status_code == 200 and repo.probes == 2


def test_a_503_anywhere_names_its_cause_and_brings_healths_next_write_forward(
    make_app: Any, clock: FakeClock, log_lines: io.StringIO
) -> None:
    broken = BrokenRepo(Writes(InMemoryRepository()))
    game = game_for(make_app(broken), clock, broken)
    player = game.new_player()
    assert game.get("/v1/health").status_code == 200  # written: good for 30 s
    broken.down = True
    assert_error(game.get("/v1/me", player), 503, "storage_unavailable")
    line = json.loads(log_lines.getvalue().splitlines()[-1])
    assert (line["path"], line["cause"], line["error"]) == (
        "/v1/me",
        UNREACHABLE,
        "the store is down (test)",
    )
    broken.down = False
    inner: Writes = broken.inner  # type: ignore[assignment]
    inner.failing = DISK_FULL
    clock.advance(DOUBT_EVERY_MS)  # a second on, not 30: a request met a failing store
    assert_error(game.get("/v1/health"), 503, "storage_unavailable")
