"""`make run` in a child process, for the tests that start, restart and break it: its port,
its log, its DynamoDB Local child, and HTTP calls to it."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from api.local.dynamodb_local import CHECKOUT

BOT_KEY = "test-bot-key"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "children").read_text().split()
        except FileNotFoundError:  # the thread ended since the folder was listed
            continue
        found += [int(c) for c in text]
    return found


def gone(pid: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
        except FileNotFoundError:
            return True
        if state == "Z":  # exited, not yet reaped by its (gone) parent's reaper
            return True
        time.sleep(0.1)
    return False


class Stack:
    """`python -m api.local` (what `make run` runs) in a child process."""

    def __init__(self, data: Path, log: Path, **extra: str) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("WT_STORE", "DYNAMODB_ENDPOINT")}
        env.update(
            WT_PORT=str(self.port), WT_DATA_DIR=str(data), WT_HOUSE_BOTS="0", WT_BOT_KEY=BOT_KEY
        )
        env.update(extra)
        self.log = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.local"],
            cwd=CHECKOUT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 90
            while True:
                assert self.process.poll() is None, log.read_text()
                try:
                    self.health = self.call("GET", "/v1/health")[1]
                    break
                except OSError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.2)
            [self.java] = children(self.process.pid)
        except BaseException:  # never leave a stack (and its java) behind a failed start
            self.process.kill()
            self.process.wait()
            raise

    def log_text(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        return self.exchange(method, path, body, token)[:2]

    def exchange(
        self, method: str, path: str, body: Any = None, token: str = ""
    ) -> tuple[int, Any, dict[str, str]]:
        """(status, JSON body, headers) of one request."""
        headers = {"Content-Type": "application/json", "X-Bot-Key": BOT_KEY}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        url = f"http://127.0.0.1:{self.port}{path}"
        request = urllib.request.Request(url, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                body = json.loads(response.read() or b"null")
                return response.status, body, dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null"), dict(error.headers)

    def store_port(self) -> int:
        """The port DynamoDB Local listens on, as `make run` printed it."""
        found = re.search(r"DynamoDB Local at http://127\.0\.0\.1:(\d+)", self.log_text())
        assert found, self.log_text()
        return int(found.group(1))

    def java_now(self) -> int:
        """DynamoDB Local's pid now (after a restart, another one)."""
        [java] = children(self.process.pid)
        self.java = java
        return java

    def stop(self, how: signal.Signals) -> None:
        self.process.send_signal(how)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.send_signal(signal.SIGUSR1)  # its threads' stacks into the log
            time.sleep(1)
            self.process.kill()
            self.process.wait()
            self.log.flush()
            pytest.fail(f"`make run` outlived {how.name} by 30 s:\n{self.log_text()[-6000:]}")
        self.log.close()
        assert gone(self.java), f"java {self.java} outlived `make run` after {how.name}"
