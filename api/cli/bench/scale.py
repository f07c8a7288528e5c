"""`wordle-tournament bench scale`: N concurrent players on DynamoDB, Lambda and API Gateway.

Plays a sample of whole tournaments (queued and in friend groups) and runs the queue at the
arrival rate of N players, through the real app on the in-memory store, metering every key of the
table and its indexes (api/scale/); then scales to N: requests per second, Lambda concurrency,
every key's load beside its partition's limits, and the bill. The model: docs/capacity.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from api.scale.plan import creations_for, layout_for
from api.scale.run import Options, run_scale
from api.storage.layout import Layout, parse_fill_shards


def register(bench: Any) -> None:
    p = bench.add_parser("scale", help="N concurrent players: requests, Lambda, hot keys, cost")
    p.add_argument(
        "--players", default="1000000", help="N, or several: 10000,100000,1000000 (1000000)"
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON only")
    p.add_argument("--plot", type=Path, help="several N: draw their figures into this PNG")
    p.add_argument("--queue-tournaments", type=int, default=6, help="in the sample (6)")
    p.add_argument("--groups", type=int, default=3, help="friend groups in the sample (3)")
    p.add_argument("--group-rounds", type=int, default=2, help="tournaments per group (2)")
    p.add_argument(
        "--queue-joins", type=int, default=4_000, help="joins measured in the queue run (4000)"
    )
    p.add_argument("--due-shards", type=int, help="instead of the plan for N")
    p.add_argument("--lobby-due-shards", type=int, help="instead of the plan for N")
    p.add_argument("--fill-shards", help="`8` or `en:16,es:4,1`, instead of the plan for N")
    p.add_argument("--creations-per-minute", type=int, help="instead of the plan for N")
    p.add_argument("--clock-copies", type=int, help="the heartbeat's copies, instead of the plan")
    p.add_argument("--seed", type=int, default=1)
    p.set_defaults(handler=run)


def players(text: str) -> list[int]:
    counts = [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    if not counts or any(n < 1 for n in counts):
        raise ValueError("--players takes positive numbers, e.g. 10000,100000,1000000")
    return counts


def layouts(args: argparse.Namespace) -> Callable[[int], Layout]:
    """The plan for N, with what the command line overrides."""

    def layout(n: int) -> Layout:
        planned = layout_for(n)
        fill, by_language = planned.fill_shards, planned.fill_shards_by_language
        if args.fill_shards:
            fill, by_language = parse_fill_shards(args.fill_shards)
        return Layout(
            due_shards=args.due_shards or planned.due_shards,
            lobby_due_shards=args.lobby_due_shards or planned.lobby_due_shards,
            fill_shards=fill,
            fill_shards_by_language=by_language,
            clock_copies=planned.clock_copies if args.clock_copies is None else args.clock_copies,
        )

    return layout


def run(args: argparse.Namespace) -> int:
    started, cpu = time.perf_counter(), time.process_time()
    counts = players(args.players)
    ceiling = args.creations_per_minute
    options = Options(
        players=counts,
        layout=layouts(args),
        creations_per_minute=(lambda n: ceiling) if ceiling else creations_for,
        queue_tournaments=args.queue_tournaments,
        groups=args.groups,
        group_rounds=args.group_rounds,
        queue_joins=args.queue_joins,
        seed=args.seed,
    )
    results = run_scale(options, progress=None if args.json else sys.stderr)
    seconds = round(time.perf_counter() - started, 1)
    cpu_seconds = round(time.process_time() - cpu, 1)
    for figures in results:
        # Wall time, and this process's CPU time (the same on a quiet machine; on a shared
        # one the wall time counts the others' work too).
        figures["seconds"] = seconds
        figures["cpu_seconds"] = cpu_seconds
    if args.plot:
        from api.scale.plot import draw  # matplotlib, only when asked

        draw(results, args.plot)
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results, indent=2))
        return 0
    for figures in results:
        print_figures(figures)
    if args.plot:
        print(f"wrote {args.plot}")
    return 0


def print_figures(f: dict[str, Any]) -> None:
    ddb = f["dynamodb"]
    hot = ddb["hottest"]
    print(f"{f['players']:,} concurrent players ({f['layout']})")
    print(
        f"  {f['concurrent_tournaments']:,} tournaments live, "
        f"{f['tournaments_per_hour']:,} an hour, "
        f"{f['joins_per_s']:,} queue joins/s (wait {f['queue_wait_s']} s)"
    )
    print(f"  API Gateway: {f['requests_per_s']:,.0f} requests/s")
    print(
        f"  Lambda: {f['lambda_concurrency']:,.0f} concurrent executions "
        f"({f['lambda_ms_per_request']} ms a request), a concurrency quota of "
        f"{f['lambda_concurrency_quota']:,.0f} for the invocation rate (10/s per unit); "
        f"the sweep finds ~{f['sweep_due_per_run']:,} due a run"
    )
    print(
        f"  DynamoDB: {ddb['read_units_per_s']:,.0f} read and "
        f"{ddb['write_units_per_s']:,.0f} write units/s; "
        f"hottest key {hot['name']} {hot['key']}: {hot['read_units_per_s']:,.0f} r/s, "
        f"{hot['write_units_per_s']:,.0f} w/s = {hot['utilisation']:.0%} of a partition"
    )
    for name, k in ddb["hottest_by_index"].items():
        print(
            f"    hottest in {name:<6} {k['key']:<28} {k['read_units_per_s']:9,.1f} r/s "
            f"{k['write_units_per_s']:9,.1f} w/s  {k['utilisation']:6.1%}"
        )
    costs = ", ".join(f"{k} ${v:,.2f}" for k, v in f["cost_by_service_per_hour_usd"].items())
    print(
        f"  cost: ${f['cost_per_hour_usd']:,.2f} an hour ({costs}); "
        f"${f['cost_per_tournament_usd']:.5f} a tournament"
    )
    print(f"  (bench: {f['seconds']} s, {f['cpu_seconds']} s of CPU)")
