"""`bench api`, one tournament over HTTP, every request metered and filed under its kind: on a
fresh table of DynamoDB Local (or moto) through the Flask test client, with a simulated clock,
clients that follow the Poll-Interval advice and, if asked, the sweep once a minute; beside the
meter, the ConsumedCapacity the store itself reports.
"""

from __future__ import annotations

import random
import uuid
from collections import defaultdict
from dataclasses import replace
from typing import Any

from flask.testing import FlaskClient

from api import bootstrap
from api.cli.bench.http_players import Clock, new_players
from api.cli.bench.response_sizes import Sizes
from api.config import Settings
from api.http.app import create_app
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.metering.meter import Meter
from api.storage.repository import Repository
from core.timing import Timing

SWEEP_MS = 60_000  # the deployed schedule

Usage = dict[str, list[tuple[float, float]]]  # per request kind: (read, write) units of each


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

    players = new_players(client, people)
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
