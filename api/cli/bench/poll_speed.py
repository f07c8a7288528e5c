"""`bench api`, the poll handler's speed: its median time on the in-memory store beside a bare
Flask JSON route (limits off and on, 200 and 304), and what the capacity meter costs the
DynamoDB adapter over a poll's storage calls (it is attached to benchmarks only).
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Callable

from flask import Flask, jsonify

from api import bootstrap
from api.cli.bench.http_players import T0, Clock, new_players
from api.config import Settings
from api.http.app import create_app
from api.service.context import words_for
from api.storage import keys
from api.storage.dynamodb.items import to_item
from api.storage.dynamodb.observer import NO_OBSERVER, Observer
from api.storage.layout import Layout
from api.storage.memory import InMemoryRepository
from api.storage.metering.dynamodb import DynamoMeter
from api.storage.metering.meter import Meter
from api.storage.records import PlayerRecord, TournamentRecord
from core import tournament as tm
from core.timing import Timing


def poll_speed(polls: int, rate_limits: bool = False) -> tuple[float, float, float]:
    """Median µs of a poll (in-memory storage), of one answered 304 and of a bare Flask JSON
    route, same run, interleaved, all through Flask's test client. The clock stands still, so
    with limits on the players take turns and only served polls are timed (not the 429s of a
    player over budget)."""
    clock = Clock()
    repo = InMemoryRepository()
    settings = Settings(timing=Timing(), rate_limits=rate_limits)
    app = create_app(bootstrap.service(settings, repo, clock=clock, seed=3))
    client = app.test_client()
    players = new_players(client, 8)
    tid = ""
    for p in players:
        r = client.post("/v1/queue", json={"language": "en"}, headers={"Authorization": p["auth"]})
        tid = r.get_json()["tournament_id"]
    clock.ms += 7_000
    bare = Flask("bare")
    bare.get("/state")(lambda: jsonify({"ok": True, "n": 1}))
    bare_client = bare.test_client()
    headers = [{"Authorization": p["auth"]} for p in (players if rate_limits else players[:1])]
    turn = itertools.count()
    url = f"/v1/tournaments/{tid}/state"
    # A player whose poll budget ran out (the clock stands still) answers 429, without an ETag.
    etags = [(h, client.get(url, headers=h).headers.get("ETag")) for h in headers]
    unchanged = [{**h, "If-None-Match": etag} for h, etag in etags if etag is not None]
    kinds: dict[str, Callable[[], int]] = {
        "poll": lambda: client.get(url, headers=headers[next(turn) % len(headers)]).status_code,
        "304": lambda: client.get(url, headers=unchanged[next(turn) % len(unchanged)]).status_code,
        "bare": lambda: bare_client.get("/state").status_code,
    }
    # Interleaved, one of each in turn: a slower moment of the machine weighs on all three.
    samples: dict[str, list[int]] = {kind: [] for kind in kinds}
    for _ in range(polls):
        for kind, fn in kinds.items():
            started = time.perf_counter_ns()
            status = fn()
            if status != 429:
                samples[kind].append(time.perf_counter_ns() - started)
    poll_us, not_modified_us, bare_us = (
        statistics.median(samples[kind]) / 1000 for kind in ("poll", "304", "bare")
    )
    return poll_us, not_modified_us, bare_us


def observer_cost(samples: int) -> tuple[float, float]:
    """Mean µs the DynamoDB adapter spends on its observer over a poll's three storage calls
    (the caller's player, the tournament, its contact stamp): with the capacity meter (what the
    benchmarks attach) and without one (production), on the items of a live tournament."""
    record = _live_tournament()
    player = record.tournament.players[0].id
    tournament = (keys.record_key(record), to_item(record, record.version).serialize())
    stored = PlayerRecord(player, "h" * 64, "Nick", 1000, T0, tournament_id=record.id)
    caller = (keys.record_key(stored), to_item(stored, 1).serialize())

    def mean_us(observer: Observer) -> float:
        started = time.perf_counter_ns()
        for _ in range(samples):
            observer.read("get_player", *caller, consistent=True)
            observer.read("get_tournament", *tournament, consistent=True)
            observer.touched("touch", tournament[0], applied=True)
        return (time.perf_counter_ns() - started) / samples / 1000

    return mean_us(DynamoMeter(Meter(), Layout())), mean_us(NO_OBSERVER)


def _live_tournament() -> TournamentRecord:
    """A tournament of eight in its first round, as the poll handler reads it."""
    seats = [tm.Seat(f"p_{i:016x}", f"Player {i}", 1000) for i in range(8)]
    t, _ = tm.start("t_0123456789abcdef", "en", seats, T0, random.Random(1), words_for("en"))
    return TournamentRecord(t, due=t.next_deadline())
