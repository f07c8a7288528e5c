"""DynamoDB Local under `make run`: it starts, keeps its data across restarts, names itself in
/v1/health, and leaves no java behind after SIGTERM or Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.config import Settings
from api.local.dynamodb_local import CHECKOUT, MEMORY, DynamoDBLocal, DynamoDBLocalError
from api.local.run import local_settings
from api.local.stores import DEFAULT_DATA_DIR, data_dir

BOT_KEY = "test-bot-key"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "children").read_text().split()
        except FileNotFoundError:  # the thread ended since the folder was listed
            continue
        found += [int(c) for c in text]
    return found


def _gone(pid: int, timeout: float = 15.0) -> bool:
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

    def __init__(self, data: Path, log: Path) -> None:
        self.port = _free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("WT_STORE", "DYNAMODB_ENDPOINT")}
        env.update(
            WT_PORT=str(self.port), WT_DATA_DIR=str(data), WT_HOUSE_BOTS="0", WT_BOT_KEY=BOT_KEY
        )
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
            [self.java] = _children(self.process.pid)
        except BaseException:  # never leave a stack (and its java) behind a failed start
            self.process.kill()
            self.process.wait()
            raise

    def log_text(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", "X-Bot-Key": BOT_KEY}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        url = f"http://127.0.0.1:{self.port}{path}"
        request = urllib.request.Request(url, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

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
        assert _gone(self.java), f"java {self.java} outlived `make run` after {how.name}"


@pytest.fixture
def stacks(tmp_path: Path) -> Iterator[list[Stack]]:
    started: list[Stack] = []
    yield started
    for stack in started:
        if stack.process.poll() is None:
            stack.process.kill()
            stack.process.wait()


def test_make_run_keeps_players_groups_and_tournaments_across_a_restart(
    tmp_path: Path, stacks: list[Stack]
) -> None:
    data, log = tmp_path / "data", tmp_path / "run.log"
    first = Stack(data, log)
    stacks.append(first)
    assert first.health["store"] == "dynamodb-local"
    assert first.health["table"] == "wordle-tournament"
    assert "store dynamodb-local, table wordle-tournament: DynamoDB Local at" in log.read_text()
    status, bot = first.call("POST", "/v1/players", {"bot": True, "rating": 1234})
    assert status == 201, bot
    players = [first.call("POST", "/v1/players")[1] for _ in range(8)]
    lobby: dict[str, Any] = {}
    for p in players:
        lobby = first.call("POST", "/v1/queue", {"language": "en"}, p["token"])[1]
    tid = lobby["tournament_id"]
    assert tid is not None
    status, group = first.call("POST", "/v1/groups", {"language": "de"}, bot["token"])
    assert status == 201, group
    first.stop(signal.SIGTERM)

    again = Stack(data, log)
    stacks.append(again)
    status, me = again.call("GET", "/v1/me", token=bot["token"])
    assert status == 200 and (me["id"], me["rating"], me["group_id"]) == (
        bot["id"],
        1234,
        group["id"],
    )
    status, state = again.call("GET", f"/v1/tournaments/{tid}/state", token=players[0]["token"])
    assert status == 200 and state["finished_at"] is None  # still live, advancing by time
    status, _ = again.call("GET", f"/v1/groups/{group['id']}", token=bot["token"])
    assert status == 200
    again.stop(signal.SIGINT)  # Ctrl-C


def test_the_data_folder_defaults_to_the_checkout_and_memory_keeps_nothing() -> None:
    assert data_dir(Settings()) == str(DEFAULT_DATA_DIR) == str(CHECKOUT / ".data")
    assert data_dir(Settings(data_dir=MEMORY)) == MEMORY
    assert DynamoDBLocal(MEMORY).in_memory and DynamoDBLocal(None).in_memory
    assert local_settings({}).store == "dynamodb-local"
    assert local_settings({"DYNAMODB_ENDPOINT": "http://x:1"}).store == "dynamodb"
    assert local_settings({"WT_STORE": "moto"}).store == "moto"
    with pytest.raises(ValueError, match="WT_STORE"):
        local_settings({"WT_STORE": "mongo"})


def test_a_missing_dynamodb_local_says_how_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(DynamoDBLocalError, match="make dynamodb-local"):
        DynamoDBLocal(MEMORY, home=tmp_path).start()
