"""The `wordle-tournament` console script: one module per subcommand, named after it.

Subcommand modules are imported only when the script runs, so importing the API never loads
them. Each exposes `register(commands)`; the benchmarks live in `api.cli.bench`, a module each.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = ("simulate", "loadtest", "db", "wordlists", "bench", "fairplay")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wordle-tournament", description="Wordle Tournament tools"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"api.cli.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    result = args.handler(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
