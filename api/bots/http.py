"""A small JSON-over-HTTP client on the standard library, as any outside client would use.

One `Http` per simulated player: it keeps one connection open while the server allows it (the
local server closes after each response; http.client then reconnects by itself). Every exchange
can be reported to a hook, which is how the load test measures latency per endpoint.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

# Connection failures worth one retry on a fresh connection (the server dropped a kept-alive one).
_DROPPED = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


@dataclass(frozen=True, slots=True)
class Exchange:
    """One request as the client saw it."""

    label: str  # "METHOD route", the route as Flask spells it: GET /v1/tournaments/<...>/state
    started: float  # wall clock, seconds since the epoch
    ms: float  # from sending the request to reading the whole response
    status: int  # 0: no response at all (connection error, timeout)
    request_id: str
    tag: str | None  # whatever the caller attributes the request to (the load test's tournament)


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    body: Any  # the parsed JSON, or None for an empty body
    headers: Mapping[str, str]  # names in lower case


class ApiError(Exception):
    """An error answer (status ≥ 400), with the API's error code."""

    def __init__(self, reply: Reply) -> None:
        error = (reply.body or {}).get("error", {}) if isinstance(reply.body, dict) else {}
        self.status = reply.status
        self.code: str = error.get("code", "")
        self.reply = reply
        retry = reply.headers.get("retry-after", "")
        self.retry_after = float(retry) if retry.replace(".", "", 1).isdigit() else None
        super().__init__(f"{reply.status} {self.code}: {error.get('message', '')}")


class Http:
    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 10.0,
        on_exchange: Callable[[Exchange], None] | None = None,
    ) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"not an http(s) URL: {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port
        self._prefix = parts.path.rstrip("/")
        self._timeout = timeout
        self._conn: http.client.HTTPConnection | None = None
        self.on_exchange = on_exchange
        self.tag: str | None = None
        self._counter = 0

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            kind = http.client.HTTPSConnection if self._https else http.client.HTTPConnection
            self._conn = kind(self._host, self._port, timeout=self._timeout)
        return self._conn

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def request(
        self,
        method: str,
        route: str,
        params: Mapping[str, str] | None = None,
        *,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        """Send `method` to `route` (Flask's spelling, `<name>` filled from `params`)."""
        path = route
        for name, value in (params or {}).items():
            path = path.replace(f"<{name}>", value)
        self._counter += 1
        request_id = f"{id(self):x}-{self._counter}"
        sent = {"X-Request-Id": request_id, "Accept": "application/json", **(headers or {})}
        payload: bytes | None = None
        if body is not None:
            payload = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        started, t0 = time.time(), time.perf_counter()
        status, data, answer = 0, b"", {}
        try:
            for attempt in range(2):
                try:
                    conn = self._connection()
                    conn.request(method, self._prefix + path, body=payload, headers=sent)
                    response = conn.getresponse()
                    data = response.read()
                    status = response.status
                    answer = {k.lower(): v for k, v in response.getheaders()}
                    if answer.get("connection", "").lower() == "close":
                        self.close()
                    break
                except _DROPPED:
                    self.close()
                    if attempt:
                        raise
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        finally:
            if self.on_exchange is not None:
                ms = (time.perf_counter() - t0) * 1000
                label = f"{method} {route}"
                self.on_exchange(Exchange(label, started, ms, status, request_id, self.tag))
        parsed = json.loads(data) if data else None
        return Reply(status, parsed, answer)
