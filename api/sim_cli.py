"""`wordle-tournament simulate` and `wordle-tournament bench core`."""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from api.progress import Progress
from core.simulation import Outcome, PlayerModel, play_tournament


def register(commands: Any, bench: Any) -> None:
    sim = commands.add_parser(
        "simulate", help="play many tournaments with simulated players (R3's check)"
    )
    sim.add_argument("--tournaments", type=int, default=1000, metavar="N")
    sim.add_argument("--seed", type=int, default=1, metavar="S")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(handler=simulate)
    core = bench.add_parser("core", help="tournaments per second through core")
    core.add_argument("--tournaments", type=int, default=2000, metavar="N")
    core.set_defaults(handler=bench_core)


def run(n: int, seed: int, model: PlayerModel | None = None) -> tuple[list[Outcome], float]:
    rng = random.Random(seed)
    progress = Progress(n, "simulating")
    outcomes = []
    # The simulation makes no reference cycles; the collector would only slow it down.
    gc.disable()
    started = time.perf_counter()
    try:
        for i in range(n):
            outcomes.append(play_tournament(rng, model))
            if i % 100 == 0:
                progress.update(i)
    finally:
        gc.enable()
    elapsed = time.perf_counter() - started
    progress.close()
    return outcomes, elapsed


def summarize(outcomes: Sequence[Outcome], seed: int, elapsed: float) -> dict[str, Any]:
    n = len(outcomes)
    rounds = Counter(o.rounds for o in outcomes)
    minutes = [o.minutes for o in outcomes]
    whole_minutes = Counter(int(m) for m in minutes)
    model = PlayerModel()
    turns = sum(o.guesses + o.skips for o in outcomes)
    return {
        "tournaments": n,
        "seed": seed,
        "rounds": {
            "median": statistics.median(o.rounds for o in outcomes),
            "mean": round(statistics.fmean(o.rounds for o in outcomes), 3),
            "share_8_to_10": round(sum(rounds[k] for k in (8, 9, 10)) / n, 4),
            "histogram": {str(k): rounds[k] for k in sorted(rounds)},
        },
        "finalist_minutes": {
            "median": round(statistics.median(minutes), 2),
            "p10": round(_quantile(minutes, 0.1), 2),
            "p90": round(_quantile(minutes, 0.9), 2),
            "histogram": {str(k): whole_minutes[k] for k in sorted(whole_minutes)},
        },
        "turns": {
            "per_tournament": round(turns / n, 1),
            "timeout_share": round(sum(o.skips for o in outcomes) / max(turns, 1), 4),
            "draws_per_tournament": round(sum(o.draws for o in outcomes) / n, 3),
        },
        "model": {
            "think_median_s": model.think_median_s,
            "think_sigma": model.think_sigma,
            "solve_hazard": list(model.solve_hazard),
        },
        "seconds": round(elapsed, 2),
    }


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _histogram(title: str, counts: dict[str, int], unit: str, width: int = 40) -> list[str]:
    top = max(counts.values())
    total = sum(counts.values())
    lines = [title]
    for key, count in counts.items():
        bar = "#" * max(1 if count else 0, round(count * width / top))
        lines.append(f"  {key:>3} {unit:<7} {bar:<{width}} {count:6d} ({count / total:5.1%})")
    return lines


def simulate(args: argparse.Namespace) -> int:
    if args.tournaments < 1:
        print("--tournaments must be at least 1", file=sys.stderr)
        return 2
    outcomes, elapsed = run(args.tournaments, args.seed)
    summary = summarize(outcomes, args.seed, elapsed)
    if args.json:
        print(json.dumps(summary))
        return 0
    r, m, t = summary["rounds"], summary["finalist_minutes"], summary["turns"]
    lines = [
        f"{summary['tournaments']} tournaments (seed {args.seed}) in {elapsed:.2f} s",
        "",
        *_histogram("Rounds per tournament", r["histogram"], "rounds"),
        f"  median {r['median']}, mean {r['mean']}, {r['share_8_to_10']:.1%} within 8-10"
        " (R3: typically 8-10)",
        "",
        *_histogram("Minutes a finalist plays", m["histogram"], "min"),
        f"  median {m['median']} min (p10 {m['p10']}, p90 {m['p90']}) (R3: about 15-20)",
        "",
        f"{t['per_tournament']} turns per tournament, {t['timeout_share']:.1%} timed out, "
        f"{t['draws_per_tournament']} draws per tournament",
    ]
    print("\n".join(lines))
    return 0


def bench_core(args: argparse.Namespace) -> int:
    _, elapsed = run(args.tournaments, seed=1)
    print(f"core: {args.tournaments} tournaments in {elapsed:.2f} s")
    print(f"core: {args.tournaments / elapsed:,.0f} tournaments per second (one core)")
    print(f"core: {elapsed / args.tournaments * 1000:.3f} ms per tournament")
    print(_guess_rate())
    return 0


def _guess_rate() -> str:
    """Guesses per second through the full command path (advance, validate, play, settle)."""
    from core import tournament as tm
    from core.simulation import NEVER_MS, SIM_WORDS
    from core.timing import Timing

    rng = random.Random(7)
    seats = [tm.Seat(f"p{i}", f"P{i}", 1000) for i in range(8)]
    base, _ = tm.start("b", "sim", seats, 0, rng, SIM_WORDS, Timing(reconnect_ms=NEVER_MS))
    duel = base.rounds[-1].duels[0]
    miss = ("v" if duel.secret[0] != "v" else "w", *duel.secret[1:])
    n = 0
    started = time.perf_counter()
    while time.perf_counter() - started < 0.5:
        t = base
        for row in range(10):
            player = duel.players[row % 2]
            t, _ = tm.guess(t, player, row, miss, 6_000 + 1_000 * (row + 1), SIM_WORDS)
            n += 1
    elapsed = time.perf_counter() - started
    return f"core: {n / elapsed:,.0f} guesses per second through tournament.guess"
