"""`wordle-tournament bench scheduler`: what one sweep costs with many live tournaments.

Against DynamoDB Local (or `--store moto`), metered by DynamoDB's billing rules
(api/storage/metering/meter.py).
"""

from __future__ import annotations

import argparse
import random
import time
import uuid
from dataclasses import replace
from typing import Any

from api import bootstrap
from api.config import Settings
from api.local.stores import add_store_option, bench_store
from api.progress import Progress
from api.service.context import words_for
from api.service.sweep import SweepReport
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.metering.meter import Meter, Usage
from api.storage.records import TournamentRecord
from api.storage.repository import Put
from core import tournament as tm
from core.timing import Timing

TIMING = Timing()
NOW = 1_760_000_000_000


def register(bench: Any) -> None:
    parser = bench.add_parser("scheduler", help="reads and writes per sweep vs live tournaments")
    parser.add_argument("--live", type=int, nargs="+", default=[0, 100, 1000], metavar="N")
    parser.add_argument("--due-share", type=float, default=0.01, metavar="F")
    add_store_option(parser)
    parser.set_defaults(handler=run)


def _seed(repo: DynamoRepository, live: int, due_share: float) -> int:
    """`live` tournaments in round 1; the first `due_share` of them have a turn timed out."""
    rng = random.Random(live)
    due = round(live * due_share)
    seats = [tm.Seat(f"p{i}", f"P{i}", 1000) for i in range(8)]
    progress = Progress(live, f"seeding {live} tournaments")
    for i in range(live):
        # A due one started 40 s ago: its intro (6 s) and first turn (30 s) are over.
        started = NOW - 40_000 if i < due else NOW
        t, _ = tm.start(f"t{i}", "en", seats, started, rng, words_for("en"), TIMING)
        record = TournamentRecord(t, contacts={}, due=t.next_deadline())
        repo.commit([Put(record, new=True)])
        progress.update(i)
    progress.close()
    return due


Row = tuple[int, int, SweepReport, Usage, dict[str, Usage], float]


def _sweep(store: Settings, live: int, due_share: float) -> Row:
    """One sweep over `live` tournaments of which `due_share` are due, on a table of its own."""
    settings = replace(
        store, table_name=f"bench-{uuid.uuid4().hex[:8]}", timing=TIMING, rate_limits=False
    )
    meter = Meter()
    repo = bootstrap.repository(settings, meter=meter)
    repo.create_table()
    due = _seed(repo, live, due_share)
    # Last contact is fresh for everyone: only the timed-out turns are due.
    service = bootstrap.service(settings, repo, clock=lambda: NOW + 1)
    meter.reset()
    started = time.perf_counter()
    report = service.sweep()
    elapsed = time.perf_counter() - started
    row = (live, due, report, meter.total(), meter.by_operation(), elapsed)
    repo.delete_table()
    return row


def run(args: argparse.Namespace) -> int:
    store = bench_store(args.store)
    try:
        rows = [_sweep(store.settings, live, args.due_share) for live in args.live]
    finally:
        store.close()
    print(f"one sweep on {store.settings.store}:")
    print("live  due  advanced  calls  read units  write units  $ per sweep   ms")
    for live, due, report, total, _usage, elapsed in rows:
        print(
            f"{live:4d} {due:4d} {report.advanced:9d} {total.calls:6d} {total.read_units:11.1f}"
            f" {total.write_units:12.1f}  {total.cost_usd:.2e} {elapsed * 1000:6.0f}"
        )
    for live, _due, _report, _total, usage, _elapsed in rows:
        detail = ", ".join(
            f"{name} {u.calls}× ({u.read_units:g} R, {u.write_units:g} W)"
            for name, u in usage.items()
        )
        print(f"  {live} live: {detail}")
    print("The sweep queries the sparse deadline index: its cost follows the due tournaments.")
    return 0
