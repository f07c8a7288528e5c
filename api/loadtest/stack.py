"""The local stack for a load test: DynamoDB Local (or moto in a child process, or the in-memory
fake), and in this process the service with its capacity meter, the sweep, and the Flask app on
a free port.

`Instrument` wraps the app as WSGI middleware and records every request the server answered,
with its route, status, time and the DynamoDB units it used (a `Meter.scope` per request). That
is the server's side of the count the load test reports.
"""

from __future__ import annotations

import logging
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException
from werkzeug.serving import BaseWSGIServer, make_server

from api import bootstrap
from api.config import Settings
from api.http import logs
from api.http.app import create_app
from api.service import Service
from api.storage.metering.meter import Meter, Scope
from api.storage.repository import Repository

BACKENDS = ("dynamodb-local", "moto", "memory")  # the first is the default
StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


_CONVERTER = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
_PLAIN = r"<\1>"


@dataclass(frozen=True, slots=True)
class Served:
    """One request as the server answered it."""

    label: str  # "METHOD route" in Flask's spelling, like the client's Exchange.label
    status: int
    ms: float  # time in the app, including storage
    request_id: str
    read_units: float
    write_units: float
    at: float  # wall clock when it arrived
    log_bytes: int = 0  # billed bytes of the app's log lines for it (CloudWatch Logs ingestion)
    cpu_ms: float = 0.0  # CPU time of the thread that served it (the app and botocore)
    calls: tuple[tuple[str, int], ...] = ()  # storage calls, by operation (metered runs only)

    @property
    def calls_by_operation(self) -> dict[str, int]:
        return dict(self.calls)


LOG_EVENT_OVERHEAD = 26  # bytes CloudWatch Logs counts per event besides its text


class LogMeter(logging.Handler):
    """Counts the bytes the app's JSON log would write, per request id, and writes nothing:
    the load test prices logs without printing a line per request."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(logs.JsonFormatter())
        self._bytes: dict[str, int] = {}
        self._lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        fields = getattr(record, "fields", {})  # by the client's id: the one its records know
        request_id = str(fields.get("client_request_id") or fields.get("request_id"))
        size = len(self.format(record).encode()) + LOG_EVENT_OVERHEAD
        with self._lock:
            self._bytes[request_id] = self._bytes.get(request_id, 0) + size

    def take(self, request_id: str) -> int:
        with self._lock:
            return self._bytes.pop(request_id, 0)


class Instrument:
    """WSGI middleware: count, time and meter every request the app serves."""

    def __init__(self, app: Flask, meter: Meter | None, log_meter: LogMeter | None = None) -> None:
        self.app = app
        self.meter = meter
        self.log_meter = log_meter
        self.served: list[Served] = []
        self._lock = threading.Lock()
        self._inner: WsgiApp = app.wsgi_app
        app.wsgi_app = self  # type: ignore[method-assign]

    def _label(self, environ: dict[str, Any]) -> str:
        method = environ.get("REQUEST_METHOD", "?")
        try:
            rule, _ = self.app.url_map.bind_to_environ(environ).match(return_rule=True)
        except HTTPException:
            return f"{method} <unmatched>"
        # `<id(t):tournament_id>` is labelled `<tournament_id>`, as the clients name it.
        return f"{method} {_CONVERTER.sub(_PLAIN, rule.rule)}"

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        statuses: list[int] = []

        def capture(status: str, headers: Any, exc_info: Any = None) -> Any:
            statuses.append(int(status.split()[0]))
            return start_response(status, headers, exc_info)

        at, t0, cpu0 = time.time(), time.perf_counter(), time.thread_time()
        scope_cm: AbstractContextManager[Scope | None] = (
            self.meter.scope() if self.meter is not None else nullcontext(None)
        )
        with scope_cm as scope:
            result = self._inner(environ, capture)
            try:
                body = b"".join(result)
            finally:
                close = getattr(result, "close", None)
                if close is not None:
                    close()
        cpu_ms = (time.thread_time() - cpu0) * 1000
        request_id = environ.get("HTTP_X_REQUEST_ID", "")
        calls = () if scope is None else tuple((k, u.calls) for k, u in scope.operations.items())
        served = Served(
            label=self._label(environ),
            status=statuses[0] if statuses else 0,
            ms=(time.perf_counter() - t0) * 1000,
            request_id=request_id,
            read_units=scope.total.read_units if scope is not None else 0.0,
            write_units=scope.total.write_units if scope is not None else 0.0,
            at=at,
            log_bytes=self.log_meter.take(request_id) if self.log_meter is not None else 0,
            cpu_ms=cpu_ms,
            calls=calls,
        )
        with self._lock:
            self.served.append(served)
        return [body]

    def snapshot(self) -> list[Served]:
        with self._lock:
            return list(self.served)


@dataclass
class Server:
    url: str
    server: BaseWSGIServer
    thread: threading.Thread

    def close(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)
        self.server.server_close()


def serve(app: WsgiApp, host: str = "127.0.0.1") -> Server:
    """Serve `app` on a free port in a daemon thread (the same threaded server as `make run`)."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server(host, 0, app, threaded=True)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="api", daemon=True
    )
    thread.start()
    return Server(f"http://{host}:{server.server_port}", server, thread)


@dataclass
class LocalStack:
    url: str
    settings: Settings
    service: Service
    instrument: Instrument
    meter: Meter | None
    backend: str
    _closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        while self._closers:
            self._closers.pop()()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _repository(
    settings: Settings, backend: str, closers: list[Callable[[], None]], long_run: bool
) -> tuple[Repository, Meter | None, Settings]:
    if backend == "memory":
        from api.storage.memory import InMemoryRepository

        return InMemoryRepository(), None, settings
    import pynamodb.settings

    from api.local import moto_server
    from api.local.dynamodb_local import MEMORY
    from api.local.stores import open_store
    from api.storage.dynamodb.repository import create_table

    # One process serves every request here (a Lambda instance serves one at a time): let
    # botocore keep a connection per concurrent request instead of PynamoDB's default 10.
    pynamodb.settings.default_settings_dict["max_pool_connections"] = 64
    if settings.dynamodb_endpoint is None:
        if backend == "moto":
            endpoint, stop = moto_server.start_process()
            settings = replace(settings, dynamodb_endpoint=endpoint, store="moto")
            closers.append(stop)
        else:
            local = replace(settings, store="dynamodb-local", data_dir=MEMORY)
            store = open_store(local, long_run=long_run)
            settings = store.settings
            closers.append(store.close)
    settings = replace(settings, table_name=f"loadtest-{uuid.uuid4().hex[:8]}")
    create_table(settings)
    meter = Meter()
    return bootstrap.repository(settings, meter=meter), meter, settings


def start_local_stack(
    settings: Settings, backend: str = BACKENDS[0], *, long_run: bool = False
) -> LocalStack:
    """Start everything. `backend`: "dynamodb-local" (DynamoDB Local in memory), "moto" (in a
    child process), both metered, or "memory" (the in-memory fake, no meter). A `long_run`
    gives DynamoDB Local's JVM its full compiler (it starts in twice the time)."""
    from scheduler import loop

    closers: list[Callable[[], None]] = []
    repo, meter, settings = _repository(settings, backend, closers, long_run)
    service = bootstrap.service(settings, repo)
    sweep_stop = loop.start(service)
    app = create_app(service)
    # The request log at its deployed level, measured but not printed (LogMeter).
    logger = logging.getLogger("wordle_tournament")
    log_meter = LogMeter()
    saved = logger.handlers, logger.level
    logger.handlers = [log_meter]
    logger.setLevel(logging.INFO)  # setLevel, not .level: it clears the logger's level cache
    instrument = Instrument(app, meter, log_meter)
    server = serve(app)
    stack = LocalStack(server.url, settings, service, instrument, meter, backend)
    stack._closers += [*closers, sweep_stop.set, server.close, lambda: _restore(logger, saved)]
    return stack


def _restore(logger: logging.Logger, saved: tuple[list[logging.Handler], int]) -> None:
    logger.handlers = saved[0]
    logger.setLevel(saved[1])


@contextmanager
def running(settings: Settings, backend: str = BACKENDS[0]) -> Iterator[LocalStack]:
    stack = start_local_stack(settings, backend)
    try:
        yield stack
    finally:
        stack.close()
