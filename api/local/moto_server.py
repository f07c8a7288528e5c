"""moto's DynamoDB over HTTP, one request at a time: the Java-free store of the fast tests and of
`WT_STORE=moto`.

Why one at a time: moto's `transact_write_items` deep-copies every table a transaction touches
and, when a condition fails, writes the copy back, with no lock (moto/dynamodb/models/
__init__.py). Optimistic locking makes failed conditions the normal path, so concurrent requests
lose acknowledged writes and fail with "dictionary changed size during iteration". A lock around
moto's WSGI app serialises them, so that no moto-backed test can pass or fail by moto's race;
the races themselves are tested on DynamoDB Local (api/local/dynamodb_local.py).
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from moto.moto_server.werkzeug_app import (
    DomainDispatcherApplication,
    MotoRequestHandler,
    create_backend_app,
)
from werkzeug.serving import BaseWSGIServer, make_server

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class Serialised:
    """A WSGI app that lets one request at a time into `app`, its body read under the lock."""

    def __init__(self, app: WsgiApp) -> None:
        self.app = app
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> list[bytes]:
        with self.lock:
            result = self.app(environ, start_response)
            try:
                return [b"".join(result)]
            finally:
                close = getattr(result, "close", None)
                if close is not None:
                    close()


def dummy_credentials() -> None:
    """botocore signs every request: give it something to sign with when nothing is set."""
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")


class MotoServer:
    """moto's server in a daemon thread of this process, on a free port (or `port`)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        dummy_credentials()
        # werkzeug logs every request at INFO, which slows moto's server down noticeably.
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        app = Serialised(DomainDispatcherApplication(create_backend_app))
        self._server: BaseWSGIServer = make_server(
            host, port, app, threaded=True, request_handler=MotoRequestHandler
        )
        bound_host, bound_port = self._server.server_address[:2]
        self.endpoint = f"http://{bound_host!s}:{bound_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="moto", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop serving; moto's data stays in this process's memory."""
        self._server.shutdown()
        self._thread.join(timeout=5)
        self._server.server_close()


def start_process(timeout_s: float = 30.0) -> tuple[str, Callable[[], None]]:
    """The same server in a child process (for the load test: the API and its bots keep this
    process's GIL, and moto gets the other core); returns its endpoint and a function that
    stops it."""
    dummy_credentials()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    child = subprocess.Popen(
        [sys.executable, "-m", "api.local.moto_server", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop() -> None:
        child.terminate()
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise RuntimeError(f"moto exited with {child.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return f"http://127.0.0.1:{port}", stop
        except OSError:
            time.sleep(0.1)
    stop()
    raise RuntimeError("moto did not start")


def main() -> None:
    """`python -m api.local.moto_server --port N`: the same server in a process of its own."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    server = MotoServer(args.host, args.port)
    try:
        server._thread.join()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
