"""`wordle-tournament bench core`: tournaments and guesses per second through `core`."""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from api.cli.simulate import run


def register(bench: Any) -> None:
    parser = bench.add_parser("core", help="tournaments per second through core")
    parser.add_argument("--tournaments", type=int, default=2000, metavar="N")
    parser.set_defaults(handler=bench_core)


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
