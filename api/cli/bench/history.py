"""`bench api`, players' history: DynamoDB units of a history page, the statistics, a public
summary and the leaderboards (with and without a token), with realistic volumes: 10,000 ranked
players and a player with a long history; the leaderboards' refresh; and what the history line
and the statistics add to the place-fixing transaction.

Units come from the capacity meter (DynamoDB's billing rules applied to the real item sizes).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import wordlists
from api import bootstrap
from api.http.app import create_app
from api.progress import Progress
from api.service import Service
from api.storage.dynamodb.items import to_item
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.dynamodb.writes import operation
from api.storage.keys import ACTIVE_INDEX, key_of
from api.storage.metering.billing import item_size, write_units
from api.storage.metering.dynamodb import DynamoMeter
from api.storage.metering.meter import Meter
from api.storage.metering.traffic import entries
from api.storage.records import HistoryRecord, StatsRecord
from api.storage.repository import Put
from core.leaderboard import PARTS, WINDOW_MS
from core.results import Result
from core.stats import Stats, add

RANKED = 10_000
HISTORY = 200
DAY = 86_400_000
_LANGUAGES = list(wordlists.LANGUAGES)


def _batch_put(repo: DynamoRepository, items: Iterable[dict[str, Any]], label: str, n: int) -> None:
    """Seed items 25 at a time (BatchWriteItem: no conditions, no meter: set-up only)."""
    progress = Progress(n, label)
    batch: list[dict[str, Any]] = []
    done = 0

    def flush() -> None:
        pending = [{"PutRequest": {"Item": item}} for item in batch]
        while pending:
            answer = repo.client.batch_write_item(RequestItems={repo.table_name: pending})
            pending = answer.get("UnprocessedItems", {}).get(repo.table_name, [])
        batch.clear()

    for item in items:
        batch.append(item)
        if len(batch) == 25:
            flush()
            done += 25
            progress.update(done)
    if batch:
        flush()
    progress.close()


def _result(rng: random.Random, tid: str, at: int, before: int, language: str) -> Result:
    place = rng.randint(1, 8)
    after = before + {1: 25, 2: 18, 3: 11, 4: 4, 5: -4, 6: -11, 7: -18, 8: -25}[place]
    won = rng.randint(0, 4)
    return Result(
        tid, language, at - 900_000, at, place, before, after, rng.randint(3, 10), won,
        rng.randint(0, 1), rng.randint(1, 3), tuple(rng.randint(1, 6) for _ in range(won)),
        False,
    )  # fmt: skip


def _ranked(rng: random.Random, now: int) -> Iterable[dict[str, Any]]:
    """Players active in the last 30 days: ratings around 1000, mostly one language."""
    for i in range(RANKED):
        primary = rng.choices(_LANGUAGES, weights=[8] + [1] * (len(_LANGUAGES) - 1))[0]
        languages = [primary] if rng.random() < 0.8 else [primary, rng.choice(_LANGUAGES)]
        rating = round(rng.gauss(1000, 150))
        stats: Stats | None = None
        for k, language in enumerate(languages):
            at = now - rng.randint(0, WINDOW_MS - DAY) + k
            r = _result(rng, f"t_seed{i:06d}{k}", at, rating - 4, language)
            stats = add(stats, replace(r, rating_after=rating), f"Ranked{i}", False, at)
        assert stats is not None
        yield to_item(StatsRecord(f"p_{i:016x}", stats), 1).serialize()


def _veteran(rng: random.Random, pid: str, now: int) -> tuple[list[dict[str, Any]], Stats]:
    """HISTORY tournaments of one player, one every two hours up to now."""
    items, stats, rating = [], None, 1000
    for i in range(HISTORY):
        at = now - (HISTORY - i) * 7_200_000
        r = _result(rng, f"t_{i:016x}", at, rating, rng.choice(["en", "en", "de"]))
        items.append(to_item(HistoryRecord(pid, r), 1).serialize())
        stats = add(stats, r, "Veteran", False, at)
        rating = r.rating_after
    assert stats is not None
    return items, stats


def run(repo: DynamoRepository, tid: str) -> None:
    """On the table of the tournament `tid` just played (limits off, as the units above)."""
    record = repo.get_tournament(tid)
    assert record is not None and record.tournament.finished_at is not None
    at = record.tournament.finished_at + 60_000

    def now() -> int:
        return at

    service = bootstrap.service(repo.settings, repo, clock=now)
    client = create_app(service).test_client()
    rng = random.Random(14)
    made = client.post("/v1/players").get_json()
    auth = {"Authorization": f"Bearer {made['token']}"}
    history, stats = _veteran(rng, made["id"], now())
    _batch_put(repo, history, f"seeding a history of {HISTORY}", HISTORY)
    repo.commit([Put(StatsRecord(made["id"], stats), new=True)])
    _batch_put(repo, _ranked(rng, now()), f"seeding {RANKED:,} ranked players", RANKED)
    meter = repo.meter
    assert meter is not None, "bench api meters its table"

    started = time.perf_counter()
    with meter.scope() as refresh:
        boards = service.leaderboards.refresh()  # no part yet: every part is read
    elapsed = time.perf_counter() - started
    active = boards["all"].players
    started = time.perf_counter()
    with meter.scope() as one_part:
        service.leaderboards.refresh(budget_s=0)  # the steady state: the stalest part at least
    part_elapsed = time.perf_counter() - started

    rows: list[tuple[str, float, float, int]] = []

    def call(label: str, url: str, headers: dict[str, str] | None = None) -> Any:
        with meter.scope() as scope:
            r = client.get(url, headers=headers or {})
        assert r.status_code in (200, 304), (url, r.get_json())
        rows.append((label, scope.total.read_units, scope.total.write_units, len(r.get_data())))
        return r

    page = call("history page (20 lines)", "/v1/me/history", auth).get_json()
    call("history, next page", f"/v1/me/history?cursor={page['next_cursor']}", auth)
    call("history page of 50", "/v1/me/history?limit=50", auth)
    call("stats", "/v1/me/stats", auth)
    first = call("summary (no token)", f"/v1/tournaments/{tid}/summary")
    call("summary, If-None-Match", f"/v1/tournaments/{tid}/summary",
         {"If-None-Match": first.headers["ETag"]})  # fmt: skip
    call("leaderboard (no token)", "/v1/leaderboard")
    call("leaderboard en (no token)", "/v1/leaderboard?language=en")
    call("leaderboard kk (no token)", "/v1/leaderboard?language=kk")
    call("leaderboard (token)", "/v1/leaderboard", auth)
    call("leaderboard en (token)", "/v1/leaderboard?language=en", auth)

    print(
        f"players' history and statistics ({active:,} ranked players, a history of {HISTORY} "
        "tournaments; the token's own read included):"
    )
    print("  request                        read/req  write/req   body bytes")
    for label, r, w, size in rows:
        print(f"  {label:<29} {r:8.2f}  {w:9.2f}  {size:11,d}")
    per_million = 1_000_000 / max(1, active)
    print(
        f"leaderboard refresh, all {PARTS} parts (14 boards from {active:,} active players): "
        f"{refresh.total.read_units:.1f} read, {refresh.total.write_units:.1f} write units, "
        f"{elapsed * 1000:.0f} ms; per million active players ≈ "
        f"{refresh.total.read_units * per_million:,.0f} read units, "
        f"{elapsed * per_million:.0f} s here"
    )
    part_of_million = elapsed / PARTS * per_million  # the entries' parsing dominates
    print(
        f"leaderboard refresh, one part: {one_part.total.read_units:.1f} read, "
        f"{one_part.total.write_units:.1f} write units, {part_elapsed * 1000:.0f} ms; a part "
        f"of a million active players ≈ {part_of_million:.0f} s here"
    )
    _place_fixing(repo, service, tid, meter)


def _place_fixing(repo: DynamoRepository, service: Service, tid: str, meter: Meter) -> None:
    """What a player's history line and statistics add to the transaction that fixes a place:
    both written transactionally (2 units a KB), with their index entries."""
    record = repo.get_tournament(tid)
    assert record is not None
    extra = []
    for p in record.tournament.players:
        [line] = repo.history(p.id, 1)
        [stats] = repo.get_stats([p.id])
        # The statistics as they were before: the same, but an older last finish (its sort key
        # in the `active` index, which the new finish moves).
        observer = DynamoMeter(Meter(), repo.layout)
        now = entries(to_item(stats, stats.version, write_id="w" * 12).serialize())
        older = {n: replace(e, sort="older") if n == ACTIVE_INDEX else e for n, e in now.items()}
        observer.saw(key_of(StatsRecord, p.id), older)
        ops = [
            operation(repo._conn, Put(line, new=True), "w" * 12, repo.layout),
            operation(repo._conn, Put(stats), "w" * 12, repo.layout),
        ]
        with observer.meter.scope() as added:
            observer.committed(ops, transactional=True, applied=True)
        extra.append(added.total.write_units)
        size = item_size(to_item(stats, stats.version).serialize())
        assert write_units(size) == 1, size
    print(
        f"place fixing: a history line and the statistics add {sum(extra) / len(extra):.1f} "
        f"write units per player ({sum(extra):.0f} per tournament of 8), in the same "
        "transaction as the rating"
    )
