"""`wordle-tournament loadtest`: N concurrent tournaments of bot clients, measured.

Without --url it starts the local stack (DynamoDB Local in memory, or --backend moto/memory; the
service with the capacity meter, the sweep, the API on a free port, rate limits off, short
timers) and stops it afterwards, DynamoDB Local included (also on Ctrl-C or SIGTERM).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from api.config import Settings
from api.loadtest.harness import Harness, HarnessConfig, languages
from api.loadtest.prices import PriceModel
from api.loadtest.report import build_report, plot, summary
from api.loadtest.stack import BACKENDS, LocalStack, start_local_stack
from api.local.dynamodb_local import stop_on_sigterm
from core.timing import Timing


def register(commands: Any) -> None:
    p = commands.add_parser(
        "loadtest",
        help="run N concurrent tournaments of bots and report latency, staleness and cost",
    )
    p.add_argument("--tournaments", type=int, default=10, help="concurrent tournaments (10)")
    p.add_argument("--duration", type=float, default=120.0, help="seconds to run (120)")
    p.add_argument("--url", help="an API to test instead of starting the local stack")
    p.add_argument("--languages", default="en", help="'en', 'en,de,…' or 'all', one per slot")
    p.add_argument("--turn-seconds", type=float, default=10.0, help="local stack: turn (10)")
    p.add_argument("--intro-seconds", type=float, default=2.0, help="local stack: intro (2)")
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default=BACKENDS[0],
        help=f"local stack's store ({BACKENDS[0]})",
    )
    p.add_argument("--bot-key", help="with --url: the server's WT_BOT_KEY, to mark bots")
    p.add_argument("--think-scale", type=float, default=1.0, help="bots' thinking time × this")
    p.add_argument(
        "--lambda-memory-mb",
        type=int,
        default=PriceModel().lambda_memory_mb,
        help="the memory Lambda is priced at (infra's, 512)",
    )
    p.add_argument("--out", type=Path, default=Path("loadtest-results"), help="output folder")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--step-up",
        action="store_true",
        help="run --tournaments, then twice as many, … until the poll p99 passes 250 ms "
        "(or a request fails); report the largest that held",
    )
    p.add_argument("--max-tournaments", type=int, default=2560, help="--step-up's last (2560)")
    p.set_defaults(handler=run)


def _progress(harness: Harness, every_s: float = 15.0) -> None:
    def loop() -> None:
        while not harness.stop.wait(every_s):
            n = len(harness.collector.exchanges)
            done = sum(r.finished for r in harness.collector.runs.values())
            elapsed = time.time() - harness.started
            print(
                f"  {elapsed:5.0f} s: {n} requests ({n / elapsed:.0f}/s), "
                f"{done} tournaments finished",
                file=sys.stderr,
            )

    threading.Thread(target=loop, daemon=True).start()


def local_settings(turn_s: float, intro_s: float) -> Settings:
    base = Settings.from_env()
    return replace(
        base,
        timing=Timing(
            turn_ms=int(turn_s * 1000),
            intro_ms=int(intro_s * 1000),
            reconnect_ms=base.timing.reconnect_ms,
        ),
        rate_limits=False,
        bot_key=secrets.token_urlsafe(24),
    )


def run_loadtest(
    *,
    tournaments: int,
    duration_s: float,
    url: str | None = None,
    settings: Settings | None = None,
    backend: str = BACKENDS[0],
    language_codes: tuple[str, ...] = ("en",),
    bot_key: str | None = None,
    think_scale: float = 1.0,
    poll_cap_s: float | None = None,
    prices: PriceModel | None = None,
    seed: int = 1,
    progress: bool = False,
) -> tuple[dict[str, Any], Harness, LocalStack | None]:
    """Run one load test; the caller closes the returned stack (None with `url`)."""
    stack = None
    if url is None:
        settings = settings or local_settings(10, 2)
        stack = start_local_stack(settings, backend, long_run=duration_s >= 300)
        url, bot_key = stack.url, settings.bot_key
    config = HarnessConfig(
        url=url,
        tournaments=tournaments,
        duration_s=duration_s,
        languages=language_codes,
        bot_key=bot_key,
        think_scale=think_scale,
        poll_cap_s=poll_cap_s,
        seed=seed,
    )
    harness = Harness(config)
    if progress:
        _progress(harness)
    harness.run()
    described: dict[str, Any] = {
        "tournaments": tournaments,
        "duration_s": duration_s,
        "url": None if stack is not None else url,
        "local_stack": stack is not None,
        "backend": backend if stack is not None else None,
        "languages": list(language_codes),
        "think_scale": think_scale,
        "poll_cap_s": poll_cap_s,
        "seed": seed,
    }
    if stack is not None:
        timing = stack.settings.timing
        described["timers_ms"] = {
            "turn": timing.turn_ms,
            "intro": timing.intro_ms,
            "reconnect": timing.reconnect_ms,
        }
    report = build_report(harness, stack, prices or PriceModel(), described)
    return report, harness, stack


def run(args: argparse.Namespace) -> int:
    if args.tournaments < 1 or args.duration <= 0:
        print("--tournaments and --duration must be positive", file=sys.stderr)
        return 2
    if args.step_up:
        return step_up(args)
    settings = None if args.url else local_settings(args.turn_seconds, args.intro_seconds)
    stop_on_sigterm()  # SIGTERM exits through the handlers that stop DynamoDB Local
    print(
        f"loadtest: {args.tournaments} tournaments for {args.duration:g} s against "
        f"{args.url or 'the local stack (' + args.backend + ')'}",
        file=sys.stderr,
    )
    report, harness = _run(args, args.tournaments, settings)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "loadtest.json").write_text(json.dumps(report, indent=2) + "\n")
    plot(harness, args.out / "loadtest.png")
    print(summary(report))
    print(f"wrote {args.out / 'loadtest.json'} and {args.out / 'loadtest.png'}")
    return 0


def _run(
    args: argparse.Namespace, tournaments: int, settings: Settings | None
) -> tuple[dict[str, Any], Any]:
    """One load test of `tournaments` as the arguments say; the local stack, if any, stopped."""
    report, harness, stack = run_loadtest(
        tournaments=tournaments,
        duration_s=args.duration,
        url=args.url,
        settings=settings,
        backend=args.backend,
        language_codes=languages(args.languages),
        bot_key=args.bot_key,
        think_scale=args.think_scale,
        prices=PriceModel(lambda_memory_mb=args.lambda_memory_mb),
        seed=args.seed,
        progress=True,
    )
    if stack is not None:
        stack.close()
    return report, harness


def held(report: dict[str, Any]) -> bool:
    """A step holds when its poll p99 is within the target and no request failed."""
    targets = report["targets"]
    return bool(targets["poll_p99_ms"]["met"]) and bool(targets["errors"]["met"])


def step_up(args: argparse.Namespace) -> int:
    """Each step a fresh local stack with twice the tournaments of the last, for --duration
    seconds; stop at the first that misses. Writes each step's JSON and a summary."""
    stop_on_sigterm()
    args.out.mkdir(parents=True, exist_ok=True)
    steps: list[dict[str, Any]] = []
    n = args.tournaments
    while n <= args.max_tournaments:
        print(f"step: {n} tournaments for {args.duration:g} s ({args.backend})", file=sys.stderr)
        settings = None if args.url else local_settings(args.turn_seconds, args.intro_seconds)
        report, _ = _run(args, n, settings)
        (args.out / f"step-{n}.json").write_text(json.dumps(report, indent=2) + "\n")
        targets = report["targets"]
        step = {
            "tournaments": n,
            "poll_p99_ms": targets["poll_p99_ms"]["value"],
            "errors": targets["errors"]["value"],
            "held": held(report),
        }
        steps.append(step)
        print(
            f"step: {n} tournaments: poll p99 {step['poll_p99_ms'] or 0:.0f} ms, "
            f"{step['errors']} errors: {'held' if step['held'] else 'missed'}",
            file=sys.stderr,
        )
        if not step["held"]:
            break
        n *= 2
    best = max((s["tournaments"] for s in steps if s["held"]), default=None)
    summary_path = args.out / "loadtest-steps.json"
    summary_path.write_text(
        json.dumps({"largest_held": best, "duration_s": args.duration, "steps": steps}, indent=2)
        + "\n"
    )
    print(f"largest number of concurrent tournaments with poll p99 ≤ 250 ms: {best}")
    print(f"wrote {summary_path} and each step's JSON")
    return 0
