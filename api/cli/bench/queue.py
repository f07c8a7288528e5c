"""`bench api`, the queue: what `GET /v1/queue` (the lobby screen's poll) and `POST /v1/queue`
cost with 0, 300 and 3,000 open lobbies in the player's language and rating band.

The open lobbies are groups' lobbies of two players rated 1000, and the polling player waits in
a group's lobby of its own: two groups' lobbies never merge (D15), so nothing changes while it
polls. Each poll reads the `fill` index around the lobby's rating with a `Limit` per band (D6's
best first), so it costs the same whatever the number open; beside it, what reading those bands
whole (as matchmaking did before) would cost.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Any

from api import bootstrap
from api.config import Settings
from api.http.app import create_app
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.records import LobbyRecord
from api.storage.repository import Put
from core.lobby import Lobby, LobbySeat

SIZES = (0, 300, 3_000)
T0 = 1_760_000_000_000


@dataclass(frozen=True, slots=True)
class Row:
    open_lobbies: int
    poll_read: float
    poll_write: float
    poll_ms: float
    join_read: float
    join_write: float
    join_ms: float
    whole_read: float  # reading the bands whole, as before
    whole_ms: float


def _lobbies(start: int, stop: int) -> list[LobbyRecord]:
    return [
        LobbyRecord(
            Lobby(
                f"bench{i:05d}",
                "en",
                T0 - 60_000 + i,
                (LobbySeat(f"bench{i:05d}a", 1000, T0), LobbySeat(f"bench{i:05d}b", 1000, T0)),
                group_id=f"g-bench{i:05d}",
                group_rating=1000.0,
            )
        )
        for i in range(start, stop)
    ]


def _timed(samples: int, call: Any, meter: Any) -> tuple[float, float, float]:
    """Median read units, write units and milliseconds of `call` over `samples` runs."""
    reads, writes, millis = [], [], []
    for _ in range(samples):
        with meter.scope() as used:
            started = time.perf_counter()
            call()
            millis.append((time.perf_counter() - started) * 1000)
        reads.append(used.total.read_units)
        writes.append(used.total.write_units)
    return statistics.median(reads), statistics.median(writes), statistics.median(millis)


def measure(
    repo: DynamoRepository, settings: Settings, sizes: tuple[int, ...] = SIZES, samples: int = 25
) -> list[Row]:
    """The rows for `sizes`, on `repo`'s (empty) table."""
    service = bootstrap.service(settings, repo, clock=lambda: T0, seed=1)
    client = create_app(service).test_client()

    def new_player() -> dict[str, str]:
        token = client.post("/v1/players").get_json()["token"]
        return {"Authorization": f"Bearer {token}"}

    poller = new_player()
    group = client.post("/v1/groups", json={"language": "en"}, headers=poller).get_json()
    client.post(f"/v1/groups/{group['id']}/start", headers=poller)
    joiner = new_player()

    def poll() -> None:
        assert client.get("/v1/queue", headers=poller).get_json()["queued"]

    def join_and_leave() -> None:
        assert client.post("/v1/queue", json={"language": "en"}, headers=joiner).status_code == 201
        assert client.delete("/v1/queue", headers=joiner).status_code == 204

    def whole() -> None:
        repo.open_lobbies("en", 1000, 400, limit=1_000_000)

    rows = []
    made = 0
    for size in sizes:
        for record in _lobbies(made, size):  # one PutItem each (moto copies tables per transaction)
            repo.commit([Put(record, new=True)])
        made = size
        poll()  # warm
        poll_r, poll_w, poll_ms = _timed(samples, poll, repo.meter)
        join_r, join_w, join_ms = _timed(max(3, samples // 5), join_and_leave, repo.meter)
        whole_r, _, whole_ms = _timed(3, whole, repo.meter)
        rows.append(Row(size, poll_r, poll_w, poll_ms, join_r, join_w, join_ms, whole_r, whole_ms))
    return rows


def report(rows: list[Row]) -> None:
    print("The queue with open lobbies nearby (median per request, units by DynamoDB's rules):")
    print("  open lobbies   GET /v1/queue            POST+DELETE /v1/queue    whole bands read")
    for r in rows:
        poll = f"{r.poll_read:4.1f} r {r.poll_write:3.1f} w {r.poll_ms:6.1f} ms"
        join = f"{r.join_read:4.1f} r {r.join_write:4.1f} w {r.join_ms:6.1f} ms"
        print(
            f"  {r.open_lobbies:12d}   {poll}   {join}   {r.whole_read:6.1f} r {r.whole_ms:7.1f} ms"
        )
