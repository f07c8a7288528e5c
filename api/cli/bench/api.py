"""`wordle-tournament bench api`: DynamoDB units per request, response sizes
(api/cli/bench/response_sizes.py), what the queue costs with 0, 300 and 3,000 open lobbies
(queue.py), players' history (a page, statistics, summary, leaderboards: history.py), what rate
limits add (limit_costs.py), a tournament of one person and seven house bots beside one of eight
people (bot_costs.py), and the poll handler's speed (poll_speed.py).

Units come from the capacity meter (DynamoDB's billing rules applied to the real item sizes),
against DynamoDB Local (or `--store moto`); one whole tournament is played over HTTP through the
Flask test client with a simulated clock and clients that follow the Poll-Interval advice
(metered_tournament.py, its players: http_players.py). This module prints the report.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
from dataclasses import replace
from typing import Any

from api import bootstrap
from api.cli.bench import history, queue
from api.cli.bench.bot_costs import print_bot_costs
from api.cli.bench.limit_costs import print_limit_costs
from api.cli.bench.metered_tournament import play_metered
from api.cli.bench.poll_speed import observer_cost, poll_speed
from api.cli.bench.response_sizes import print_sizes
from api.config import Settings
from api.http import logs
from api.local.stores import add_store_option, bench_store
from api.storage.dynamodb.items import to_item
from api.storage.metering.billing import item_size
from api.storage.metering.meter import Meter


def register(bench: Any) -> None:
    parser = bench.add_parser(
        "api", help="DynamoDB units per request (play, history, stats, leaderboards), poll speed"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--polls", type=int, default=2000, help="polls to time")
    add_store_option(parser)
    parser.set_defaults(handler=run)


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
            f"(unchanged, answered by its poll pass: the tournament eventually consistent, 0.5; "
            f"changed: the token's player too, 0.5; a first poll reads both strongly, a moved "
            f"position the player again; goal <= 1.0)"
        )
    print_sizes(sizes)
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
        poll_us, not_modified_us, bare_us = poll_speed(args.polls, limited)
        print(
            f"poll handler, limits {'on ' if limited else 'off'}: {poll_us:.0f} µs median (200), "
            f"{not_modified_us:.0f} µs (304) vs a bare Flask JSON route {bare_us:.0f} µs "
            f"(ratio {poll_us / bare_us:.2f} and {not_modified_us / bare_us:.2f}, goal <= 2)"
        )
    metered_us, production_us = observer_cost(args.polls)
    print(
        f"the capacity meter on the DynamoDB adapter, a poll's three storage calls: "
        f"{metered_us:.1f} µs metered (benchmarks), {production_us:.1f} µs in production (none)"
    )
    return 0
