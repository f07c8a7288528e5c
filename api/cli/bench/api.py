"""`wordle-tournament bench api`: DynamoDB units per request, response sizes, what the queue
costs with 0, 300 and 3,000 open lobbies (api/cli/bench/queue.py), players' history (a page,
statistics, summary, leaderboards: api/cli/bench/history.py), what rate limits add
(limit_costs.py), a tournament of one person and seven house bots beside one of eight people
(bot_costs.py), and the poll handler's speed.

Units come from the capacity meter (DynamoDB's billing rules applied to the real item sizes),
against DynamoDB Local (or `--store moto`); one whole tournament is played over HTTP through the
Flask test client with a simulated clock and clients that follow the Poll-Interval advice.
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import os
import random
import statistics
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Flask, jsonify
from flask.testing import FlaskClient

from api import bootstrap
from api.cli.bench import history, queue
from api.cli.bench.bot_costs import print_bot_costs
from api.cli.bench.limit_costs import print_limit_costs
from api.config import Settings
from api.http import logs
from api.http.app import create_app
from api.local.stores import add_store_option, bench_store
from api.service.context import words_for
from api.storage import keys
from api.storage.dynamodb.items import to_item
from api.storage.dynamodb.observer import NO_OBSERVER, Observer
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.layout import Layout
from api.storage.memory import InMemoryRepository
from api.storage.metering.billing import item_size
from api.storage.metering.dynamodb import DynamoMeter
from api.storage.metering.meter import Meter
from api.storage.records import PlayerRecord, TournamentRecord
from api.storage.repository import Repository
from core import tournament as tm
from core.timing import Timing

T0 = 1_760_000_000_000
SWEEP_MS = 60_000  # the deployed schedule


def register(bench: Any) -> None:
    parser = bench.add_parser(
        "api", help="DynamoDB units per request (play, history, stats, leaderboards), poll speed"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--polls", type=int, default=2000, help="polls to time")
    add_store_option(parser)
    parser.set_defaults(handler=run)


class Clock:
    def __init__(self) -> None:
        self.ms = T0

    def __call__(self) -> int:
        return self.ms


_ADDRESSES = itertools.count()  # each new player from its own address (creation is limited)


def _players(client: FlaskClient, n: int) -> list[dict[str, str]]:
    made = []
    for _ in range(n):
        k = next(_ADDRESSES)
        address = {"REMOTE_ADDR": f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}"}
        body = client.post("/v1/players", environ_base=address).get_json()
        made.append({"id": body["id"], "auth": f"Bearer {body['token']}"})
    return made


# What the state carried before it showed every live duel's board, provisional places, where the
# player is, and the history's round count: to measure what they add to a poll's body.
_NEW_STATE_FIELDS = ("intro_at", "starts_at", "history_rounds", "where")
_NEW_PLAYER_FIELDS = ("rating", "out_round", "provisional")
_SUMMARY_FIELDS = ("id", "players", "rows", "word_length", "result")


def state_before(view: dict[str, Any]) -> dict[str, Any]:
    """The same state in the shape it had before (duel summaries, no story)."""
    old = {k: v for k, v in view.items() if k not in _NEW_STATE_FIELDS}
    old["players"] = [
        {k: v for k, v in p.items() if k not in _NEW_PLAYER_FIELDS} for p in view["players"]
    ]
    old["duels"] = [{k: d[k] for k in _SUMMARY_FIELDS} for d in view["duels"]]
    return old


Usage = dict[str, list[tuple[float, float]]]  # per request kind: (read, write) units of each


@dataclass
class Sizes:
    """Bytes of the bodies: state polls answered 200 (now and in the former shape), and the
    history as a client fetches it, once per round."""

    state: list[int] = field(default_factory=list)
    state_before: list[int] = field(default_factory=list)
    history: list[int] = field(default_factory=list)
    state_with_history: list[int] = field(default_factory=list)  # had it been inside
    latest: dict[str, int] = field(default_factory=dict)  # each player's latest history
    # A poll's read units apart from the instance's heartbeat, for polls naming their state.
    named_poll_reads: list[float] = field(default_factory=list)
    heartbeat_reads: float = 0.0  # what the polls' scopes read of the heartbeat

    def poll(self, body: bytes, view: dict[str, Any]) -> None:
        self.state.append(len(body))
        self.state_with_history.append(len(body) + self.latest.get(view["you"], 0))
        compact = json.dumps(state_before(view), separators=(",", ":"), ensure_ascii=False)
        self.state_before.append(len(compact.encode()))


def _play(
    client: FlaskClient,
    repo: Repository,
    clock: Clock,
    rng: random.Random,
    meter: Any,
    people: int = 8,
    sweep: Any = None,
) -> tuple[dict[str, list[tuple[float, float]]], str, Sizes]:
    """One tournament of `people` (fewer than 8: house bots fill it once its fill is due, D18,
    and their moves are written by whoever advances it); every request metered and filed under
    its kind, and with `sweep` (a callable) the sweep once a minute, as deployed."""
    usage: dict[str, list[tuple[float, float]]] = defaultdict(list)
    sizes = Sizes()

    def call(kind: str, method: str, url: str, auth: str, **kw: Any) -> Any:
        with meter.scope() as scope:
            response = client.open(url, method=method, headers={"Authorization": auth}, **kw)
        if kind == "poll" and response.status_code == 304:
            kind = "poll (304)"
        usage[kind].append((scope.total.read_units, scope.total.write_units))
        return response

    players = _players(client, people)
    lobby: dict[str, Any] = {}
    for p in players:
        lobby = call("join queue", "POST", "/v1/queue", p["auth"], json={"language": "en"}).json
    while lobby["tournament_id"] is None:  # D18: the lobby screen's polls until the bots come
        clock.ms += 1_000
        if call("queue poll", "GET", "/v1/queue", players[0]["auth"]).json["queued"]:
            continue
        lobby["tournament_id"] = repo.get_player(players[0]["id"]).tournament_id  # type: ignore[union-attr]
    tid = lobby["tournament_id"]
    next_sweep = clock.ms + SWEEP_MS
    url = f"/v1/tournaments/{tid}"
    next_poll = {p["id"]: clock.ms for p in players}
    etags: dict[str, str] = {}
    history_of = {p["id"]: 0 for p in players}  # rounds in the history each player holds
    plan: dict[tuple[str, int], int] = {}
    while True:
        for p in players:
            if clock.ms < next_poll[p["id"]]:
                continue
            headers = {"If-None-Match": etags[p["id"]]} if p["id"] in etags else {}
            with meter.scope() as scope:
                r = client.get(f"{url}/state", headers={"Authorization": p["auth"], **headers})
            kind = "poll (304)" if r.status_code == 304 else "poll"
            usage[kind].append((scope.total.read_units, scope.total.write_units))
            beat = sum(u.read_units for op, u in scope.operations.items() if "clock" in op)
            sizes.heartbeat_reads += beat
            if headers:
                sizes.named_poll_reads.append(scope.total.read_units - beat)
            etags[p["id"]] = r.headers["ETag"]
            next_poll[p["id"]] = clock.ms + round(1000 * float(r.headers["Poll-Interval"]))
            if r.status_code == 200:
                state = r.get_json()
                if state["history_rounds"] > history_of[p["id"]]:
                    h = call("history", "GET", f"{url}/history", p["auth"])
                    sizes.history.append(len(h.get_data()))
                    sizes.latest[p["id"]] = len(h.get_data())
                    history_of[p["id"]] = state["history_rounds"]
                sizes.poll(r.get_data(), state)
                if state["phase"] == "finished":
                    return usage, tid, sizes
                duel = state["duel"]
                if duel and duel["your_turn"]:
                    key = (duel["id"], len(duel["rows"]))
                    plan.setdefault(key, clock.ms + rng.randint(4_000, 20_000))
        if sweep is not None and clock.ms >= next_sweep:
            with meter.scope() as scope:
                sweep()
            usage["sweep"].append((scope.total.read_units, scope.total.write_units))
            next_sweep += SWEEP_MS
        # Whoever planned to play by now plays (the secret a third of the time).
        record = repo.get_tournament(tid)
        assert record is not None
        for duel in record.tournament.round.duels:
            key = (duel.id, len(duel.turns))
            if duel.ended_at is None and key in plan and plan[key] <= clock.ms:
                who = next(p for p in players if p["id"] == duel.to_play)
                word = "".join(duel.secret) if rng.random() < 0.33 else None
                word = word or rng.choice(["crane", "slate", "house", "plant", "words", "fight"])
                word = word if len(word) == len(duel.secret) else "".join(duel.secret)
                call(
                    "guess",
                    "POST",
                    f"{url}/guesses",
                    who["auth"],
                    json={"row": len(duel.turns), "word": word, "duel": duel.id},
                )
                del plan[key]
        clock.ms += 500


def _print_sizes(sizes: Sizes) -> None:
    def spread(values: list[int]) -> str:
        return f"mean {statistics.mean(values):6.0f}, max {max(values):6d}"

    print("response bodies (bytes; a 304 has none):")
    print(f"  state poll (200), now          {spread(sizes.state)}  ({len(sizes.state)} polls)")
    print(f"  the same in the former shape   {spread(sizes.state_before)}")
    print(f"  history, once a round          {spread(sizes.history)}  ({len(sizes.history)})")
    print(
        f"  state with the history inside  {spread(sizes.state_with_history)}  (the history "
        f"would travel {len(sizes.state) / max(1, len(sizes.history)):.0f}× as often)"
    )


def _poll_speed(polls: int, rate_limits: bool = False) -> tuple[float, float, float]:
    """Median µs of a poll (in-memory storage) and of a bare Flask JSON route, same run, both
    through the same test client. The clock stands still, so with limits on the players take
    turns and only served polls are timed (not the 429s of a player over budget)."""
    clock = Clock()
    repo = InMemoryRepository()
    settings = Settings(timing=Timing(), rate_limits=rate_limits)
    app = create_app(bootstrap.service(settings, repo, clock=clock, seed=3))
    client = app.test_client()
    players = _players(client, 8)
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

    def timed(fn: Any) -> float:
        samples = []
        for _ in range(polls):
            started = time.perf_counter_ns()
            status = fn()
            if status != 429:
                samples.append(time.perf_counter_ns() - started)
        return statistics.median(samples) / 1000

    url = f"/v1/tournaments/{tid}/state"
    poll_us = timed(lambda: client.get(url, headers=headers[next(turn) % len(headers)]).status_code)
    # A player whose poll budget ran out (the clock stands still) answers 429, without an ETag.
    etags = [(h, client.get(url, headers=h).headers.get("ETag")) for h in headers]
    unchanged = [{**h, "If-None-Match": etag} for h, etag in etags if etag is not None]
    not_modified_us = timed(
        lambda: client.get(url, headers=unchanged[next(turn) % len(unchanged)]).status_code
    )
    bare_us = timed(lambda: bare_client.get("/state").status_code)
    return poll_us, not_modified_us, bare_us


def _observer_cost(samples: int) -> tuple[float, float]:
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


_READS = {"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"}


class ReportedCapacity:
    """The ConsumedCapacity the store itself reports in its answers, summed (reads and writes
    told apart by operation): DynamoDB Local's is DynamoDB's arithmetic, a check on the meter."""

    def __init__(self, client: Any) -> None:
        self.read = self.write = 0.0
        self._client = client
        client.meta.events.register("after-call.dynamodb", self._after_call)

    def _after_call(self, parsed: dict[str, Any], model: Any, **_: Any) -> None:
        consumed = parsed.get("ConsumedCapacity") or []
        entries = consumed if isinstance(consumed, list) else [consumed]
        units = sum(float(e.get("CapacityUnits", 0.0)) for e in entries)
        if model.name in _READS:
            self.read += units
        else:
            self.write += units

    def stop(self) -> None:
        self._client.meta.events.unregister("after-call.dynamodb", self._after_call)


def _logs_to_devnull() -> None:
    """Keep the JSON request log on (it is part of a real poll's cost) but out of the output."""
    logger = logs.configure()
    handler = logging.StreamHandler(open(os.devnull, "w"))  # noqa: SIM115 - lives as long as the run
    handler.setFormatter(logs.JsonFormatter())
    logger.handlers = [handler]
    logger.setLevel(logging.INFO)


def run(args: argparse.Namespace) -> int:
    _logs_to_devnull()
    store = bench_store(args.store)
    try:
        return _run(args, store.settings)
    finally:
        store.close()


def play_metered(
    store: Settings, seed: int, rate_limits: bool, people: int = 8, sweep: bool = False
) -> tuple[Usage, DynamoRepository, str, Sizes, ReportedCapacity]:
    """One tournament of `people` (the rest house bots) over HTTP on a fresh table of `store`,
    with `sweep` the sweep once a minute; units per request kind."""
    settings = replace(
        store,
        table_name=f"bench-api-{uuid.uuid4().hex[:8]}",
        timing=Timing(),
        rate_limits=rate_limits,
    )
    meter = Meter()
    repo = bootstrap.repository(settings, meter=meter)
    repo.create_table()
    clock = Clock()
    service = bootstrap.service(settings, repo, clock=clock, seed=seed)
    client = create_app(service).test_client()
    meter.reset()
    reported = ReportedCapacity(repo.client)
    usage, tid, sizes = _play(
        client, repo, clock, random.Random(seed), meter, people, service.sweep if sweep else None
    )
    reported.stop()
    return usage, repo, tid, sizes, reported


def _run(args: argparse.Namespace, store: Settings) -> int:
    usage, repo, tid, sizes, reported = play_metered(store, args.seed, rate_limits=False)
    settings = repo.settings
    assert repo.meter is not None
    metered = repo.meter.total()  # every call, the benchmark's own reads of the state too
    record = repo.get_tournament(tid)
    assert record is not None
    size = item_size(to_item(record, record.version).serialize())
    print(f"DynamoDB units per request on {settings.store} (metered by DynamoDB's billing rules):")
    print("  request       count   read/req  write/req")
    total_r = total_w = 0.0
    for kind in sorted(usage):
        rows = usage[kind]
        r = sum(u[0] for u in rows)
        w = sum(u[1] for u in rows)
        total_r, total_w = total_r + r, total_w + w
        print(f"  {kind:<12} {len(rows):6d}   {r / len(rows):8.2f}  {w / len(rows):9.2f}")
    cost = total_r * 0.125e-6 + total_w * 0.625e-6
    print(
        f"per tournament: {total_r:.1f} read units, {total_w:.1f} write units, "
        f"${cost:.5f} of DynamoDB on demand"
    )
    if settings.store == "dynamodb-local":  # moto reports a constant whatever the size
        print(
            f"every call of the run (the benchmark's own reads too): metered "
            f"{metered.read_units:.1f} read, {metered.write_units:.1f} write units; DynamoDB "
            f"Local's own ConsumedCapacity {reported.read:.1f} read, {reported.write:.1f} write "
            "(it reports none for a failed condition)"
        )
    print(f"finished tournament item: {size} bytes ({record.tournament.round.number} rounds)")
    polls = [u for kind in ("poll", "poll (304)") for u in usage.get(kind, [])]
    if polls:
        per_poll = sum(u[0] for u in polls) / len(polls)
        beat = sizes.heartbeat_reads / len(polls)
        named = sizes.named_poll_reads
        print(
            f"read units per poll: {per_poll:.3f}, of which {beat:.3f} this one instance's "
            f"heartbeat (spread over all of an instance's requests at scale); the poll's own "
            f"{per_poll - beat:.3f}, a poll naming its state {statistics.mean(named):.3f} "
            f"(the token's player and the tournament eventually consistent, 0.5 each; a first "
            f"poll reads both strongly, a moved position the player again; goal <= 1.0)"
        )
    _print_sizes(sizes)
    history.run(repo, tid)
    repo.delete_table()
    queue_settings = replace(settings, table_name=f"{settings.table_name}-queue")
    queue_repo = bootstrap.repository(queue_settings, meter=Meter())
    queue_repo.create_table()
    # moto copies the whole table in every transaction: 3,000 lobbies would time out there.
    open_counts = queue.SIZES if settings.store != "moto" else queue.SIZES[:2]
    queue.report(queue.measure(queue_repo, settings, open_counts))
    queue_repo.delete_table()
    print_limit_costs(store, args.seed, play_metered)
    print_bot_costs(store, args.seed, play_metered)
    for limited in (False, True):
        poll_us, not_modified_us, bare_us = _poll_speed(args.polls, limited)
        print(
            f"poll handler, limits {'on ' if limited else 'off'}: {poll_us:.0f} µs median (200), "
            f"{not_modified_us:.0f} µs (304) vs a bare Flask JSON route {bare_us:.0f} µs "
            f"(ratio {poll_us / bare_us:.2f} and {not_modified_us / bare_us:.2f}, goal <= 2)"
        )
    metered_us, production_us = _observer_cost(args.polls)
    print(
        f"the capacity meter on the DynamoDB adapter, a poll's three storage calls: "
        f"{metered_us:.1f} µs metered (benchmarks), {production_us:.1f} µs in production (none)"
    )
    return 0
