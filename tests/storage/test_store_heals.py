"""`make run` heals its store: DynamoDB Local killed mid-game is reaped and started
again on the same data, requests meanwhile get a quick 503 with Retry-After, and the game goes
on with nothing lost; a DynamoDB Local that cannot come back ends `make run` with a clear
message and exit status 69; a full disk is named in /v1/health and in the 503's log line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.local.watch import STORE_LOST
from tests.api.words import fillers
from tests.storage.local_stack import Stack, gone

FAST = {"WT_INTRO_SECONDS": "0.05"}  # the turns keep their 30 s: none runs out meanwhile


def lines(stack: Stack) -> list[dict[str, Any]]:
    found = []
    for line in stack.log_text().splitlines():
        with contextlib.suppress(ValueError):
            found.append(json.loads(line))
    return found


def until(check: Any, what: str, timeout: float = 60.0) -> Any:
    """Polls `check()` until it returns something true (the store coming back, not game time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    pytest.fail(f"no {what} within {timeout:g} s")


def healthy(stack: Stack) -> bool:
    try:
        return stack.call("GET", "/v1/health")[0] == 200
    except OSError:
        return False


def new_game(stack: Stack) -> tuple[str, list[dict[str, Any]]]:
    players = []
    for _ in range(8):
        status, player = stack.call("POST", "/v1/players")
        assert status == 201, player
        players.append(player)
    lobby: dict[str, Any] = {}
    for p in players:
        lobby = stack.call("POST", "/v1/queue", {"language": "en"}, p["token"])[1]
    assert lobby["tournament_id"] is not None
    return lobby["tournament_id"], players


def playing(stack: Stack, tid: str, player: dict[str, Any]) -> bool:
    status, state = stack.call("GET", f"/v1/tournaments/{tid}/state", token=player["token"])
    assert status == 200, state
    return bool(state["phase"] == "duels")


def duels(stack: Stack, tid: str, players: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every duel as its players see it, by duel id, once the round is being played."""
    found = {}
    for p in players:
        status, state = stack.call("GET", f"/v1/tournaments/{tid}/state", token=p["token"])
        assert status == 200, state
        assert state["phase"] == "duels", state["phase"]
        if state["duel"] is not None:
            found[state["duel"]["id"]] = state["duel"]
    return found


def play_a_row(stack: Stack, tid: str, players: list[dict[str, Any]]) -> None:
    """Whoever is to play in each duel guesses a word that cannot be the secret."""
    tokens = {p["id"]: p["token"] for p in players}
    for duel in duels(stack, tid, players).values():
        row = len(duel["rows"])
        word = fillers("en", duel["word_length"])[row]
        body = {"row": row, "word": word, "duel": duel["id"]}
        status, answer = stack.call(
            "POST", f"/v1/tournaments/{tid}/guesses", body, tokens[duel["to_play"]]
        )
        assert status == 200, answer


def boards(stack: Stack, tid: str, players: list[dict[str, Any]]) -> dict[str, Any]:
    return {d: (v["rows"], v["to_play"]) for d, v in duels(stack, tid, players).items()}


def kill_java(stack: Stack) -> int:
    java = stack.java_now()
    os.kill(java, signal.SIGKILL)
    return java


def test_dynamodb_local_killed_mid_game_comes_back_with_nothing_lost(
    tmp_path: Path, stacks: list[Stack]
) -> None:
    stack = Stack(tmp_path / "data", tmp_path / "run.log", **FAST)
    stacks.append(stack)
    tid, players = new_game(stack)
    until(lambda: playing(stack, tid, players[0]), "the round")
    play_a_row(stack, tid, players)
    play_a_row(stack, tid, players)
    before = boards(stack, tid, players)
    assert all(len(rows) == 2 for rows, _ in before.values())

    dead = kill_java(stack)
    started = time.monotonic()
    status, error, headers = stack.exchange(
        "GET", f"/v1/tournaments/{tid}/state", token=players[0]["token"]
    )
    assert status == 503 and error["error"]["code"] == "storage_unavailable"
    assert int(headers["Retry-After"]) >= 1 and time.monotonic() - started < 10  # not a hang
    until(lambda: healthy(stack), "healthy store")
    # The dead java was reaped (no zombie), and another runs on the same data.
    assert not Path(f"/proc/{dead}").exists()  # not even a zombie
    assert stack.java_now() != dead

    # Nothing lost: players and their tokens, the game exactly where it was; and it goes on.
    assert boards(stack, tid, players) == before
    for p in players:
        status, me = stack.call("GET", "/v1/me", token=p["token"])
        assert status == 200 and me["tournament_id"] == tid
    play_a_row(stack, tid, players)
    assert all(len(rows) == 3 for rows, _ in boards(stack, tid, players).values())
    assert stack.call("POST", "/v1/players")[0] == 201

    logged = lines(stack)
    exited = [e for e in logged if e["message"] == "DynamoDB Local exited; restarting it"]
    assert [(e["pid"], e["how"]) for e in exited] == [(dead, "was killed by SIGKILL")]
    assert [e["message"] for e in logged].count("DynamoDB Local restarted") == 1
    failed = [e for e in logged if e["message"] == "request" and e["status"] == 503]
    assert failed and {e["cause"] for e in failed} == {"unreachable"}
    # The console carries the app's lines only: no werkzeug line per request.
    assert ' HTTP/1.1" 200' not in stack.log_text()
    stack.stop(signal.SIGTERM)
    assert stack.process.returncode == 128 + signal.SIGTERM  # as before: not STORE_LOST


def test_make_run_stops_with_a_clear_message_when_dynamodb_local_keeps_dying(
    tmp_path: Path, stacks: list[Stack]
) -> None:
    """Three restarts within a minute; the fourth exit ends `make run` (status 69)."""
    stack = Stack(tmp_path / "data", tmp_path / "run.log")
    stacks.append(stack)
    for _ in range(3):
        dead = kill_java(stack)
        until(lambda d=dead: healthy(stack) and stack.java_now() != d, "restart")
    kill_java(stack)
    assert stack.process.wait(timeout=60) == STORE_LOST
    text = stack.log_text()
    assert "make run stopped: DynamoDB Local is gone and it exited 4 times within 60 s" in text
    assert "Its data is kept" in text


def test_make_run_stops_with_a_clear_message_when_the_port_is_taken(
    tmp_path: Path, stacks: list[Stack]
) -> None:
    stack = Stack(tmp_path / "data", tmp_path / "run.log")
    stacks.append(stack)
    port = stack.store_port()
    dead = kill_java(stack)
    assert gone(dead), "java outlived SIGKILL"
    with socket.socket() as squatter:  # another program takes the port before the restart
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        until(lambda: _bound(squatter, port), "the port")
        squatter.listen()
        assert stack.process.wait(timeout=120) == STORE_LOST
    text = stack.log_text()
    assert f"it could not be started again: port {port} is taken by another program" in text
    assert "make run stopped: DynamoDB Local is gone" in text


def _bound(sock: socket.socket, port: int) -> bool:
    try:
        sock.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False


@contextlib.contextmanager
def small_disk(where: Path, size: str = "48m") -> Iterator[Path]:
    """A file system of `size` (tmpfs; the sandbox's root may mount one)."""
    where.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], check=True)
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Writes a file until the disk has not one more byte of room."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        for chunk in (1 << 20, 1 << 12, 1):
            with contextlib.suppress(OSError):  # ENOSPC: a smaller chunk, then none
                while True:
                    os.write(fd, b"\0" * chunk)
    finally:
        os.close(fd)
    return filler


def test_a_full_disk_is_named_by_health_and_in_the_503_log_line(
    tmp_path: Path, stacks: list[Stack]
) -> None:
    """DynamoDB Local's data folder on a 48 MB file system, filled up while a game is played:
    writes get 503 (Retry-After 30) logged as `disk_full`, reads still work, /v1/health says
    `disk_full`; once there is room again, everything goes on."""
    with small_disk(tmp_path / "disk") as disk:
        stack = Stack(disk / "data", tmp_path / "run.log", **FAST)
        stacks.append(stack)
        tid, players = new_game(stack)
        token = players[0]["token"]
        until(lambda: playing(stack, tid, players[0]), "the round")
        play_a_row(stack, tid, players)
        before = boards(stack, tid, players)
        filler = fill(disk)

        status, error, headers = stack.exchange("POST", "/v1/groups", {"language": "en"}, token)
        assert (status, error["error"]["code"], headers["Retry-After"]) == (
            503,
            "storage_unavailable",
            "30",
        )
        assert boards(stack, tid, players) == before  # reads go on
        status, health = until(
            lambda: (r := stack.call("GET", "/v1/health"))[0] == 503 and r, "unhealthy store"
        )
        assert health["error"]["details"]["cause"] == "disk_full"
        failed = [e for e in lines(stack) if e["message"] == "request" and e["status"] == 503]
        assert {e["cause"] for e in failed} == {"disk_full"}
        assert {e["path"] for e in failed} >= {"/v1/groups", "/v1/health"}
        assert "disk is full" in failed[0]["error"]

        filler.unlink()
        until(lambda: healthy(stack), "healthy store")
        play_a_row(stack, tid, players)
        assert stack.call("POST", "/v1/groups", {"language": "en"}, token)[0] == 201
        stack.stop(signal.SIGTERM)
