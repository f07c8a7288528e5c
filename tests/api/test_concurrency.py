"""Many threads guessing, polling, watching and leaving in ONE tournament through the real Flask
app: no update is lost, nothing is applied twice, and the core invariants hold."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from api.config import Settings
from tests.api.checks import assert_final, assert_invariants
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, TIMING
from tests.api.game import Game, Player, winning_sometimes
from tests.api.words import fillers

WALL_SECONDS = {"memory": 3.0, "dynamo": 7.0}
FAKE_MS_PER_TICK = 50  # every 10 ms of real time: the game runs at 5x


@dataclass
class Log:
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    accepted: list[tuple[str, int, str]] = field(default_factory=list)  # (player, row, word)
    sent_words: set[tuple[str, str]] = field(default_factory=set)
    leaves: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def status(self, what: str, code: int, body: bytes) -> None:
        with self.lock:
            self.statuses[(what, code)] += 1
            if code >= 500 and code != 503:
                self.errors.append(f"{what} {code} {body[:300]!r}")


class Words:
    """Hands out valid non-secret words, each at most once in the whole test."""

    def __init__(self, rng: random.Random) -> None:
        self.lock = threading.Lock()
        self.pools = {n: rng.sample(fillers("en", n), len(fillers("en", n))) for n in (4, 5, 6)}

    def take(self, length: int) -> str:
        with self.lock:
            return self.pools[length].pop()


def player_loop(
    app: Any,
    game: Game,
    tid: str,
    me: Player,
    words: Words,
    log: Log,
    stop: threading.Event,
    leave_after: int | None,
    seed: int,
) -> None:
    client = app.test_client()
    rng = random.Random(seed)
    headers = me.headers
    url = f"/v1/tournaments/{tid}"
    steps = 0
    out = False
    while not stop.is_set():
        steps += 1
        r = client.get(f"{url}/state", headers=headers)
        log.status("state", r.status_code, r.data)
        if r.status_code != 200:
            continue
        st = r.get_json()
        if st["phase"] == "finished":
            return
        if leave_after is not None and steps == leave_after:
            r = client.post(f"{url}/leave", headers=headers)
            log.status("leave", r.status_code, r.data)
            if r.status_code == 200:
                with log.lock:
                    log.leaves.append(me.id)
                out = True
        duel = st["duel"]
        if out or duel is None or not duel["your_turn"]:
            time.sleep(0.005)
            continue
        row = len(duel["rows"])
        if rng.random() < 0.2:
            word = game.secret_text(tid, duel["id"])
        else:
            word = words.take(duel["word_length"])
        with log.lock:
            log.sent_words.add((me.id, word))
        body = {"row": row, "word": word}
        for _attempt in range(2 if rng.random() < 0.3 else 1):  # sometimes a retry, at once
            r = client.post(f"{url}/guesses", headers=headers, json=body)
            log.status("guess", r.status_code, r.data)
            if r.status_code == 200:
                with log.lock:
                    log.accepted.append((me.id, row, word))


def watcher_loop(app: Any, tid: str, me: Player, log: Log, stop: threading.Event) -> None:
    """Polls with ETags and watches every duel of the round (R9)."""
    client = app.test_client()
    etag = None
    while not stop.is_set():
        headers = dict(me.headers)
        if etag:
            headers["If-None-Match"] = etag
        r = client.get(f"/v1/tournaments/{tid}/state", headers=headers)
        log.status("state", r.status_code, r.data)
        if r.status_code == 200:
            etag = r.headers["ETag"]
            for d in r.get_json()["duels"]:
                w = client.get(f"/v1/tournaments/{tid}/duels/{d['id']}", headers=me.headers)
                log.status("duel", w.status_code, w.data)
        time.sleep(0.01)


def ticker(clock: FakeClock, stop: threading.Event) -> None:
    while not stop.wait(0.01):
        clock.advance(FAKE_MS_PER_TICK)


@BOTH
def test_concurrent_guesses_polls_and_leaves_lose_no_update(
    request: pytest.FixtureRequest, make_app: Any, repo: Any, clock: FakeClock, settings: Settings
) -> None:
    kind = request.node.callspec.params["repo"]
    app = make_app(repo, settings=replace(settings, rate_limits=False))
    game = Game(app.test_client(), clock, repo)
    players = game.new_players(8)
    tid = game.queue(players)
    clock.advance(TIMING.intro_ms)
    words = Words(random.Random(3))
    log = Log()
    stop = threading.Event()
    leavers = {players[2].id: 6, players[5].id: 9}  # they leave on their 6th / 9th poll
    threads = [
        threading.Thread(
            target=player_loop,
            args=(app, game, tid, p, words, log, stop, leavers.get(p.id), i),
            daemon=True,
        )
        for i, p in enumerate(players)
    ]
    threads += [
        threading.Thread(target=watcher_loop, args=(app, tid, p, log, stop), daemon=True)
        for p in players[::2]
    ]
    threads.append(threading.Thread(target=ticker, args=(clock, stop), daemon=True))
    for t in threads:
        t.start()
    deadline = time.monotonic() + WALL_SECONDS[kind]
    while time.monotonic() < deadline and any(t.is_alive() for t in threads[:8]):
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join(timeout=30)
        assert not t.is_alive(), "a thread hung"

    assert log.errors == []
    assert sorted(log.leaves) == sorted(leavers)
    assert len(log.accepted) >= 10, log.statuses
    stored = game.stored(tid)
    assert_invariants(stored)
    # Every accepted guess is on its board exactly once, at the row it was sent for; and every
    # played row is a guess somebody sent (nothing invented, nothing lost).
    turns = [
        (turn.player, i, "".join(turn.word))
        for rnd in stored.rounds
        for duel in rnd.duels
        for i, turn in enumerate(duel.turns)
        if turn.word is not None
    ]
    for pid, row, word in set(log.accepted):
        on_board = [t for t in turns if t[0] == pid and t[2] == word]
        assert on_board == [(pid, row, word)], (pid, row, word, on_board)
    for pid, _row, word in turns:
        assert (pid, word) in log.sent_words
    assert len(turns) == len(set(log.accepted))
    # Leavers are out, at once (R20).
    for pid in leavers:
        p = stored.player(pid)
        assert p.lives == 0 and p.left_at is not None
    # The rest of the game, single-threaded; then places and ratings, each applied once.
    final = game.play_to_end(tid, players, winning_sometimes(0.6, random.Random(8)))
    assert final is not None
    assert_final(game, tid, players, final)
