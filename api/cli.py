"""The `wordle-tournament` console script.

Each area of the code base contributes its own subcommands through a `register(commands, bench)`
function, imported only when the script runs, so importing the API never loads them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that expose `register(commands, bench) -> None`.
COMMAND_MODULES = (
    "api.sim_cli",
    "api.loadtest.cli",
    "api.storage.db_cli",
    "api.deploy_cli",
    "api.bench_cli",
    "wordlists.cli",
    "scheduler.bench",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wordle-tournament", description="Wordle Tournament tools"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bench_parser = commands.add_parser("bench", help="print speed and memory figures")
    bench = bench_parser.add_subparsers(dest="bench", required=True, metavar="WHAT")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(commands, bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result = args.handler(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
