"""`wordle-tournament bench wordlists`: load time, memory and lookup speed of one language."""

from __future__ import annotations

import argparse
from typing import Any

from wordlists.languages import LANGUAGES


def register(bench: Any) -> None:
    parser = bench.add_parser("wordlists", help="load time, memory and lookup speed")
    parser.add_argument("--lang", choices=list(LANGUAGES), help="default: the largest")
    parser.set_defaults(handler=run_bench)


def run_bench(args: argparse.Namespace) -> int:
    from wordlists.bench import LOAD_GOAL_MS, MEMORY_GOAL_MB, bench

    result = bench(args.lang)
    print(f"language:      {result.lang} ({LANGUAGES[result.lang].english_name})")
    print(f"load:          {result.load_ms:.1f} ms (goal <= {LOAD_GOAL_MS:.0f} ms)")
    print(f"memory:        {result.memory_mb:.1f} MB (goal <= {MEMORY_GOAL_MB:.0f} MB)")
    print(f"lookups:       {result.lookups_per_second:,.0f} per second")
    return 0
