"""The fair-play suite's stack: the app on a real threaded server over DynamoDB Local, rate
limits on, a fake clock (tests/fairplay/harness.py moves it), and the operators' command on the
same table."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from api import bootstrap
from api.cli import main
from api.config import Settings
from api.http.app import create_app
from api.loadtest.stack import serve
from api.service import Service
from api.storage.dynamodb.repository import DynamoRepository
from core.timing import Timing
from tests.api.clock import FakeClock
from tests.api.conftest import _quiet_request_logs  # noqa: F401 - autouse here too
from tests.conftest import MakeTable
from tests.fairplay.harness import BoundHttp

T0 = 1_780_000_000_000
# The real turn and intro (the clock is fake, so they cost nothing); no disconnects (D9): the
# harness's clients send nothing between their own turns.
TIMING = Timing(turn_ms=30_000, intro_ms=6_000, reconnect_ms=3_600_000)


@dataclass
class FairStack:
    url: str
    service: Service
    repo: DynamoRepository
    clock: FakeClock
    monkeypatch: pytest.MonkeyPatch

    def http(self, address: str) -> BoundHttp:
        return BoundHttp(self.url, address)

    def fairplay(self, *args: str) -> dict[str, Any]:
        """`wordle-tournament fairplay --json ARGS` on this table, as an operator runs it."""
        self.monkeypatch.setenv("WT_TABLE", self.repo.table_name)
        self.monkeypatch.setenv("DYNAMODB_ENDPOINT", self.repo.settings.dynamodb_endpoint or "")
        self.monkeypatch.setenv("WT_STORE", "dynamodb")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(["fairplay", *args, "--json"])
        assert code == 0, out.getvalue()
        listing: dict[str, Any] = json.loads(out.getvalue())
        return listing


@pytest.fixture
def fair_stack(make_table: MakeTable, monkeypatch: pytest.MonkeyPatch) -> Iterator[FairStack]:
    settings = Settings(timing=TIMING, rate_limits=True, outage_gap_ms=0)
    repo = make_table("dynamodb-local", settings)
    clock = FakeClock(T0)
    service = bootstrap.service(repo.settings, repo, clock=clock, seed=19)
    server = serve(create_app(service))
    try:
        yield FairStack(server.url, service, repo, clock, monkeypatch)
    finally:
        server.close()
