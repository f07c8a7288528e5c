"""The stage of a simulation: the real app over the in-memory store, a simulated clock, a queue
of timed events, and the meter that records what each request (and each sweep) costs, per key
of the table and of its indexes, per phase of a player's cycle.
"""

from __future__ import annotations

import hashlib
import heapq
import io
import itertools
import json
import logging
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from api import bootstrap
from api.config import Settings
from api.http import logs
from api.http.app import create_app
from api.loadtest.stack import LogMeter
from api.service.context import Context
from api.storage.layout import Layout
from api.storage.memory import InMemoryRepository
from api.storage.metering.meter import Meter
from api.storage.metering.traffic import KeyTally
from api.storage.records import PlayerRecord
from api.storage.repository import Put
from core.timing import Timing

T0 = 1_767_225_600_000  # the simulated clock starts here (any fixed instant)
BUCKET_MS = 10_000  # per-key units are summed per 10 s of simulated time


@dataclass
class Phase:
    """What the requests of one phase of the cycle cost, in sum."""

    tally: KeyTally
    requests: Counter[str] = field(default_factory=Counter)
    cpu_ms: float = 0.0  # CPU time in the app (this thread: other processes do not count)
    calls: Counter[str] = field(default_factory=Counter)  # storage calls, by operation
    read_units: float = 0.0
    write_units: float = 0.0
    log_bytes: int = 0
    statuses: Counter[int] = field(default_factory=Counter)

    @property
    def count(self) -> int:
        return sum(self.requests.values())


class Headers(dict[str, str]):
    """Response headers by lower-case name."""

    def get(self, name: str, default: Any = None) -> Any:
        return super().get(name.lower(), default)


@dataclass
class Reply:
    status_code: int
    headers: Headers
    body: bytes

    def get_json(self, silent: bool = False) -> Any:
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            if silent:
                return None
            raise


class Wsgi:
    """Calls the app as a WSGI server would, without a test client's request building (a
    quarter of a millisecond a request, which a simulation of many thousands feels)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.base = {
            "SCRIPT_NAME": "",
            "QUERY_STRING": "",
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "443",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": "localhost",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "https",
            "wsgi.errors": io.StringIO(),
            "wsgi.multithread": False,
            "wsgi.multiprocess": False,
            "wsgi.run_once": False,
        }

    def open(
        self, method: str, path: str, headers: dict[str, str], body: Any, address: str
    ) -> Reply:
        data = b"" if body is None else json.dumps(body).encode()
        environ = dict(self.base)
        environ["REQUEST_METHOD"] = method
        environ["PATH_INFO"], _, environ["QUERY_STRING"] = path.partition("?")
        environ["REMOTE_ADDR"] = address
        environ["wsgi.input"] = io.BytesIO(data)
        if body is not None:
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(data))
        for name, value in headers.items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        status: list[Any] = []

        def start_response(line: str, sent: list[tuple[str, str]], exc_info: Any = None) -> Any:
            status.append((int(line.split()[0]), sent))
            return lambda chunk: None

        result = self.app(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        code, sent = status[0]
        return Reply(code, Headers((k.lower(), v) for k, v in sent), content)


class SimContext(Context):
    """Ids from the seeded generator, so that a run's keys (and shards) repeat."""

    def new_id(self, prefix: str) -> str:
        return f"{prefix}_{self.rng.getrandbits(64):016x}"


class World:
    def __init__(
        self,
        layout: Layout,
        seed: int,
        *,
        index_lag_ms: int = 0,
        timing: Timing | None = None,
        bucket_ms: int = BUCKET_MS,
        creations_per_minute: int = 600,
    ) -> None:
        self.now = T0
        self.bucket_ms = bucket_ms
        self.rng = random.Random(seed)
        self.meter = Meter()
        self.repo = InMemoryRepository(
            index_lag_ms, clock=self.clock, layout=layout, meter=self.meter
        )
        settings = Settings(
            timing=timing or Timing(),
            rate_limits=True,
            layout=layout,
            creations_per_minute=creations_per_minute,
        )
        self.service = bootstrap.service(
            settings, self.repo, clock=self.clock, seed=seed, context=SimContext
        )
        self.ctx = self.service.ctx
        self.log_meter = LogMeter()
        log = logs.configure()
        log.addHandler(self.log_meter)
        self._quiet(log)
        self.client = Wsgi(create_app(self.service).wsgi_app)
        self.phases: dict[str, Phase] = {}
        self._events: list[tuple[int, int, Callable[[], None]]] = []
        self._order = itertools.count()

    @staticmethod
    def _quiet(log: logging.Logger) -> None:
        """Log lines are counted (LogMeter), not printed: stderr handlers stop at errors."""
        for handler in log.handlers:
            if not isinstance(handler, LogMeter):
                handler.setLevel(logging.CRITICAL)

    def close(self) -> None:
        logs.configure().removeHandler(self.log_meter)

    def clock(self) -> int:
        return self.now

    def phase(self, name: str) -> Phase:
        found = self.phases.get(name)
        if found is None:
            found = self.phases[name] = Phase(KeyTally(self.clock, self.bucket_ms))
        return found

    # ------------------------------------------------------------------ events

    def at(self, when: int, action: Callable[[], None]) -> None:
        heapq.heappush(self._events, (max(when, self.now), next(self._order), action))

    def run(self, until: int | None = None) -> None:
        """Run the events in time order (until `until`, if given)."""
        while self._events and (until is None or self._events[0][0] <= until):
            when, _, action = heapq.heappop(self._events)
            self.now = when
            action()
        if until is not None:
            self.now = max(self.now, until)

    # ------------------------------------------------------------------ requests

    def request(
        self,
        phase: str,
        label: str,
        method: str,
        path: str,
        *,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
        address: str = "203.0.113.1",
    ) -> Any:
        """One HTTP request through the app at the simulated now, metered as `phase`."""
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        request_id = secrets.token_hex(8)
        sent["X-Request-Id"] = request_id
        record = self.phase(phase)
        self.meter.keys = record.tally
        with self.meter.scope() as scope:
            started = time.thread_time()
            response = self.client.open(method, path, sent, body, address)
            record.cpu_ms += (time.thread_time() - started) * 1000
        self.meter.keys = None
        record.requests[label] += 1
        record.statuses[response.status_code] += 1
        record.read_units += scope.total.read_units
        record.write_units += scope.total.write_units
        for name, usage in scope.operations.items():
            record.calls[name] += usage.calls
        record.log_bytes += self.log_meter.take(request_id)
        return response

    def background(self, phase: str, action: Callable[[], Any]) -> Any:
        """Work outside any request (the sweep), metered as `phase`."""
        record = self.phase(phase)
        self.meter.keys = record.tally
        with self.meter.scope() as scope:
            started = time.thread_time()
            result = action()
            record.cpu_ms += (time.thread_time() - started) * 1000
        self.meter.keys = None
        record.read_units += scope.total.read_units
        record.write_units += scope.total.write_units
        for name, usage in scope.operations.items():
            record.calls[name] += usage.calls
        return result

    def new_player(self, rating: int, bot: bool = False) -> tuple[str, str]:
        """A player that exists before the run: (id, token). Stored directly, as the service
        would (its creation is measured apart, by the requests that create players)."""
        secret = secrets.token_urlsafe(24)
        record = PlayerRecord(
            id=self.ctx.new_id("p"),
            token_hash=hashlib.sha256(secret.encode()).hexdigest(),
            nickname=f"Player {self.rng.randrange(10_000)}",
            rating=rating,
            created_at=self.now,
            bot=bot,
        )
        self.unmetered(lambda: self.repo.commit([Put(record, new=True)]))
        return record.id, f"{record.id}.{secret}"

    def unmetered(self, action: Callable[[], Any]) -> Any:
        """Setting the stage (players that exist before the run): on no tally."""
        self.meter.keys = None
        return action()
