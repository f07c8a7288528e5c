"""`wordle-tournament wordlists build|stats`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from wordlists.languages import LANGUAGES, LENGTHS
from wordlists.store import DATA_DIR, KINDS, counts


def register(commands: Any) -> None:
    wordlists = commands.add_parser("wordlists", help="build or inspect the word lists")
    actions = wordlists.add_subparsers(dest="wordlists_command", required=True, metavar="ACTION")

    build = actions.add_parser("build", help="regenerate wordlists/data from the pinned sources")
    build.add_argument("--lang", action="append", choices=list(LANGUAGES), help="only these")
    build.add_argument(
        "--check",
        action="store_true",
        help="only compare with the committed files; exit 1 if any differ",
    )
    build.add_argument(
        "--allow-other-versions",
        action="store_true",
        help="build even if installed sources differ from the pinned ones",
    )
    build.set_defaults(handler=run_build)

    stats = actions.add_parser("stats", help="counts of secrets and accepted words")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(handler=run_stats)


def run_build(args: argparse.Namespace) -> int:
    from wordlists.builder.pipeline import build_language, version_problems
    from wordlists.builder.progress import ProgressBar

    codes: list[str] = args.lang or list(LANGUAGES)
    problems = version_problems(codes)
    if problems and not args.allow_other_versions:
        print("installed sources differ from the pinned ones:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        print("install the pinned versions, or pass --allow-other-versions", file=sys.stderr)
        return 2
    bar = ProgressBar(len(codes))
    differing = []
    for code in codes:
        bar.show(f"building {code} ({LANGUAGES[code].english_name})")
        text = build_language(code)
        path = DATA_DIR / f"{code}.txt"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            differing.append(code)
            if not args.check:
                path.write_text(text, encoding="utf-8", newline="\n")
        bar.advance(f"{code} {'differs' if old != text else 'identical'}")
    bar.close()
    if args.check:
        print(f"differ from committed data: {', '.join(differing) or 'none'}")
        return 1 if differing else 0
    print(f"rewrote: {', '.join(differing) or 'nothing (all identical)'}")
    return 0


def stats_table() -> dict[str, dict[str, dict[str, int]]]:
    return {
        code: {str(n): {kind: c[n][kind] for kind in KINDS} for n in LENGTHS}
        for code in LANGUAGES
        for c in [counts(code)]
    }


def run_stats(args: argparse.Namespace) -> int:
    table = stats_table()
    if args.json:
        print(json.dumps(table, indent=2))
        return 0
    header = "lang  " + "  ".join(f"{n}: secrets/accepted".rjust(22) for n in LENGTHS)
    print(header)
    for code, by_length in table.items():
        cells = "  ".join(
            f"{by_length[str(n)]['secrets']:>9} / {by_length[str(n)]['accepted']:<10}".rjust(22)
            for n in LENGTHS
        )
        print(f"{code:<6}{cells}")
    return 0
