"""`wordle-tournament bench coldstart`: what a Lambda cold start costs us, measured here.

Each figure is the median of fresh interpreters (`-X importtime`, no site, nothing cached in
memory), alternating between what is compared:

- entry: `import api.lambda_app` (zappa's `app_function`: every import plus `create_app()`);
- libraries: `import flask, pynamodb, boto3` alone, the floor no Flask/PynamoDB app goes under;
- with a built package (`make package`, or `--package`): its size, and the wall time of zappa's
  handler starting from the unpacked zip (`import handler; handler.LambdaHandler()`) with
  bytecode writing off, as on Lambda's read-only /var/task.

Goals: entry ≤ 1.3 × libraries and ≤ 400 ms here; the package ≤ 15 MB zipped.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_PACKAGE = ROOT / "dist" / "wordle-tournament-dev.zip"
MARK = "@@coldstart@@"
ENTRY = "import api.lambda_app"
LIBRARIES = "import flask, pynamodb, boto3"
RATIO_GOAL = 1.3
ENTRY_GOAL_MS = 400.0
SIZE_GOAL_MB = 15.0
# What the Lambda runtime provides beside the package (zappa's `exclude`).
RUNTIME_PROVIDED = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "six.py", "urllib3")


def register(bench: Any) -> None:
    parser = bench.add_parser("coldstart", help="import time of the Lambda entry point, size")
    parser.add_argument("--runs", type=int, default=7, help="interpreters per figure (median)")
    parser.add_argument(
        "--package", type=Path, help=f"default: {DEFAULT_PACKAGE.relative_to(ROOT)}"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(handler=coldstart_command)


def _env() -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "testing",  # nothing connects: create_app() makes no call
        "AWS_SECRET_ACCESS_KEY": "testing",
    }


def _probe(paths: list[str], statement: str, *, bytecode: bool = True) -> tuple[float, float]:
    """(import ms as -X importtime counts it, wall ms) of `statement` in a fresh interpreter."""
    code = (
        "import sys, time\n"
        f"sys.path[:0] = {paths!r}\n"
        f"sys.stderr.write({MARK!r} + '\\n'); sys.stderr.flush()\n"
        "t = time.perf_counter()\n"
        f"{statement}\n"
        "print((time.perf_counter() - t) * 1000)\n"
    )
    flags = ["-X", "importtime", "-I", "-S"] + ([] if bytecode else ["-B"])
    done = subprocess.run(
        [sys.executable, *flags, "-c", code],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=paths[0],
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{statement!r} failed:\n{done.stderr[-3000:]}")
    return import_ms(done.stderr), float(done.stdout.strip().splitlines()[-1])


def import_ms(stderr: str) -> float:
    """The sum of the top-level cumulative times after the marker, in ms."""
    after = stderr.split(MARK, 1)[1]
    total = 0
    for line in after.splitlines():
        found = re.match(r"import time:\s+\d+ \|\s+(\d+) \| \S", line)
        if found:
            total += int(found[1])
    return total / 1000


def _site_packages() -> str:
    return sysconfig.get_paths()["purelib"]


def measure_imports(runs: int) -> dict[str, Any]:
    paths = [str(ROOT), _site_packages()]
    entry: list[tuple[float, float]] = []
    libraries: list[tuple[float, float]] = []
    _probe(paths, ENTRY)  # the first run writes any missing .pyc: not a cold start of ours
    for _ in range(runs):
        entry.append(_probe(paths, ENTRY))
        libraries.append(_probe(paths, LIBRARIES))
    entry_ms = statistics.median(i for i, _ in entry)
    libraries_ms = statistics.median(i for i, _ in libraries)
    return {
        "runs": runs,
        "entry_import_ms": round(entry_ms, 1),
        "entry_wall_ms": round(statistics.median(w for _, w in entry), 1),
        "libraries_import_ms": round(libraries_ms, 1),
        "libraries_wall_ms": round(statistics.median(w for _, w in libraries), 1),
        "ratio": round(entry_ms / libraries_ms, 2),
    }


def measure_package(package: Path, runs: int) -> dict[str, Any]:
    size = package.stat().st_size
    figures: dict[str, Any] = {"package": str(package), "zipped_mb": round(size / 1e6, 2)}
    with zipfile.ZipFile(package) as z:
        figures["unzipped_mb"] = round(sum(i.file_size for i in z.infolist()) / 1e6, 2)
        with tempfile.TemporaryDirectory() as tmp:
            task, runtime = Path(tmp) / "task", Path(tmp) / "runtime"
            z.extractall(task)
            runtime.mkdir()
            for name in RUNTIME_PROVIDED:
                source = Path(_site_packages()) / name
                if source.exists():
                    (runtime / name).symlink_to(source)
            statement = "import handler; handler.LambdaHandler()"
            paths = [str(task), str(runtime)]
            walls = [_probe(paths, statement, bytecode=False)[1] for _ in range(runs)]
    figures["handler_init_wall_ms"] = round(statistics.median(walls), 1)
    return figures


def coldstart_command(args: argparse.Namespace) -> int:
    figures = measure_imports(max(1, args.runs))
    package = args.package or DEFAULT_PACKAGE
    if package.exists():
        figures.update(measure_package(package, max(1, args.runs // 2)))
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    ratio_ok = figures["ratio"] <= RATIO_GOAL
    entry_ok = figures["entry_import_ms"] <= ENTRY_GOAL_MS
    print(f"cold imports, median of {figures['runs']} fresh interpreters (-X importtime):")
    print(
        f"  entry point  {ENTRY:<32} {figures['entry_import_ms']:7.1f} ms"
        f"  (wall {figures['entry_wall_ms']:.1f} ms, with create_app)"
    )
    print(f"  libraries    {LIBRARIES:<32} {figures['libraries_import_ms']:7.1f} ms")
    print(
        f"  ratio {figures['ratio']:.2f} (goal ≤ {RATIO_GOAL}: {'met' if ratio_ok else 'MISSED'}),"
        f" entry ≤ {ENTRY_GOAL_MS:.0f} ms: {'met' if entry_ok else 'MISSED'}"
    )
    if "zipped_mb" in figures:
        size_ok = figures["zipped_mb"] <= SIZE_GOAL_MB
        print(
            f"package {figures['package']}: {figures['zipped_mb']:.2f} MB zipped"
            f" ({figures['unzipped_mb']:.2f} MB unzipped; goal ≤ {SIZE_GOAL_MB:.0f} MB:"
            f" {'met' if size_ok else 'MISSED'})"
        )
        print(
            f"  zappa handler start from the unpacked package, no .pyc:"
            f" {figures['handler_init_wall_ms']:.1f} ms wall"
        )
    else:
        print(f"no package at {package}: run `make package` for its size")
    return 0
