"""`wordle-tournament bench WHAT`: benchmarks that print figures, one module per WHAT."""

from __future__ import annotations

import importlib
from typing import Any

BENCHES = (
    "core",
    "solver",
    "wordlists",
    "api",
    "polls",
    "scheduler",
    "coldstart",
    "scale",
    "population",
)


def register(commands: Any) -> None:
    parser = commands.add_parser("bench", help="print speed, cost and memory figures")
    bench = parser.add_subparsers(dest="bench", required=True, metavar="WHAT")
    for name in BENCHES:
        importlib.import_module(f"api.cli.bench.{name}").register(bench)
