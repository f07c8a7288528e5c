"""`wordle-tournament simulate`: many tournaments with modelled players (R3's check)."""

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

import wordlists
from api.progress import Progress
from core.simulation import Outcome, PlayerModel, play_tournament


def register(commands: Any) -> None:
    sim = commands.add_parser(
        "simulate", help="play many tournaments with simulated players (R3's check)"
    )
    sim.add_argument("--tournaments", type=int, default=None, metavar="N")
    sim.add_argument("--seed", type=int, default=1, metavar="S")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument(
        "--bots",
        action="store_true",
        help="house bots among people with real words (D18): places and round lengths; "
        "N tournaments a line (default 200)",
    )
    sim.add_argument("--language", default="en", help="the words of --bots (default en)")
    sim.set_defaults(handler=simulate)


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
    args.tournaments_given = args.tournaments is not None
    if args.tournaments is None:
        args.tournaments = 1000
    if args.tournaments < 1:
        print("--tournaments must be at least 1", file=sys.stderr)
        return 2
    if args.bots:
        from api.cli import simulate_bots

        if args.language not in wordlists.LANGUAGES:
            print(f"--language must be one of {', '.join(wordlists.LANGUAGES)}", file=sys.stderr)
            return 2
        return simulate_bots.report(args)
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
