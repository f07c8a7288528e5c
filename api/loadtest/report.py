"""Turn what a load test recorded into figures: the JSON report, its text summary and a plot.

Counts come from the client side (every request a bot sent); when the stack ran in this process
the server's own count (`Instrument`) is reported beside it, and server times and DynamoDB units
are joined to the client's requests by request id.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from api.bots.http import Exchange
from api.loadtest.costs import POLL, costs
from api.loadtest.harness import Harness
from api.loadtest.prices import PriceModel
from api.loadtest.stack import LocalStack, Served
from api.storage.metering.meter import Meter

TARGETS = {
    "concurrent_tournaments_min": 10,
    "poll_p99_ms_max": 250,
    "errors_max": 0,
    "staleness_p95_ms_max": 1200,
    "round_notice_p95_ms_max": 1200,
    "cost_per_tournament_usd_max": 0.005,
    "naive_over_measured_min": 5.0,  # a fifth of naive polling (it was 4)
}


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of `values`; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return float(ordered[rank - 1])


def _spread(values: Sequence[float]) -> dict[str, float | None]:
    return {
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "p99": percentile(values, 99),
        "max": max(values) if values else None,
    }


def _is_error(status: int) -> bool:
    return status == 0 or status >= 400


def _endpoints(exchanges: Sequence[Exchange], served: dict[str, Served]) -> dict[str, Any]:
    by_label: dict[str, list[Exchange]] = defaultdict(list)
    for e in exchanges:
        by_label[e.label].append(e)
    table: dict[str, Any] = {}
    for label in sorted(by_label):
        rows = by_label[label]
        known = [served[e.request_id] for e in rows if e.request_id in served]
        server_ms = [s.ms for s in known]
        table[label] = {
            "count": len(rows),
            "errors": sum(_is_error(e.status) for e in rows),
            "statuses": dict(sorted(Counter(str(e.status) for e in rows).items())),
            "latency_ms": _spread([e.ms for e in rows]),
            "server_ms": _spread(server_ms) if server_ms else None,
            # What one request costs on average, as the model prices it (bench polls uses it).
            "mean": (
                {
                    "server_ms": sum(server_ms) / len(known),
                    "read_units": sum(s.read_units for s in known) / len(known),
                    "write_units": sum(s.write_units for s in known) / len(known),
                    "log_bytes": sum(s.log_bytes for s in known) / len(known),
                }
                if known
                else None
            ),
        }
    return table


def build_report(
    harness: Harness,
    stack: LocalStack | None,
    prices: PriceModel,
    config: dict[str, Any],
) -> dict[str, Any]:
    collector = harness.collector
    exchanges = list(collector.exchanges)
    answered = stack.instrument.snapshot() if stack is not None else []
    served = {r.request_id: r for r in answered if r.request_id}
    elapsed = max(1e-9, harness.ended - harness.started)
    polls = [e for e in exchanges if e.label == POLL]
    runs = list(collector.runs.values())
    started = [r for r in runs if r.tournament_id]
    finished = [r for r in runs if r.finished]
    player_minutes = sum(r.active_s for r in runs) / 60
    stale = collector.staleness_ms()
    notice = collector.round_notice_ms()
    meter = stack.meter if stack is not None else None
    endpoints = _endpoints(exchanges, served)
    report: dict[str, Any] = {
        "config": config,
        "elapsed_s": elapsed,
        "requests": {
            "total": len(exchanges),
            "per_second": len(exchanges) / elapsed,
            "errors": sum(_is_error(e.status) for e in exchanges),
            "error_kinds": dict(
                Counter(f"{e.label} {e.status}" for e in exchanges if _is_error(e.status))
            ),
            "by_endpoint": endpoints,
        },
        "server": (
            {
                "total": len(answered),
                "by_endpoint": dict(sorted(Counter(r.label for r in answered).items())),
            }
            if stack is not None
            else None
        ),
        "polls": {
            "count": len(polls),
            "not_modified": sum(e.status == 304 for e in polls),
            "player_minutes": player_minutes,
            "per_player_minute": len(polls) / player_minutes if player_minutes else None,
            # What each poll waited for, from the state its bot had (api/loadtest/situations.py)
            "per_player_minute_by_situation": {
                name: count / player_minutes
                for name, count in collector.situations.most_common()
                if player_minutes
            },
        },
        "staleness_ms": {"count": len(stale), **_spread([float(s) for s in stale])},
        "round_notice_ms": {"count": len(notice), **_spread([float(n) for n in notice])},
        "tournaments": {
            "concurrent": config["tournaments"],
            "started": len(started),
            "finished": len(finished),
            "mean_rounds_finished": (
                sum(r.rounds for r in finished) / len(finished) if finished else None
            ),
            "mean_minutes_finished": (
                sum((r.ended or 0) - (r.started or 0) for r in finished) / len(finished) / 60
                if finished
                else None
            ),
            "failures": list(collector.failures),
        },
        "dynamodb": _dynamodb(meter, answered),
        "cost_per_tournament": costs(harness, served, prices, meter),
    }
    report["targets"] = _targets(report)
    return report


def _dynamodb(meter: Meter | None, answered: Sequence[Served]) -> dict[str, Any] | None:
    if meter is None:
        return None
    total = meter.total()
    in_requests_r = sum(r.read_units for r in answered)
    in_requests_w = sum(r.write_units for r in answered)
    return {
        "read_units": total.read_units,
        "write_units": total.write_units,
        "in_requests": {"read_units": in_requests_r, "write_units": in_requests_w},
        "background_sweep": {
            "read_units": total.read_units - in_requests_r,
            "write_units": total.write_units - in_requests_w,
        },
        "by_operation": {
            name: {"calls": u.calls, "read_units": u.read_units, "write_units": u.write_units}
            for name, u in meter.by_operation().items()
        },
    }


def _targets(report: dict[str, Any]) -> dict[str, Any]:
    poll = report["requests"]["by_endpoint"].get(POLL)
    p99 = poll["latency_ms"]["p99"] if poll else None
    cost = report["cost_per_tournament"]
    measured = cost.get("measured")
    usd = measured["usd"]["total"] if measured else None
    ratio = cost.get("naive_over_measured")
    stale = report["staleness_ms"]["p95"]
    notice = report["round_notice_ms"]["p95"]

    def check(value: float | None, ok: bool) -> dict[str, Any]:
        return {"value": value, "met": ok if value is not None else None}

    return {
        "concurrent_tournaments": check(
            report["tournaments"]["concurrent"],
            report["tournaments"]["concurrent"] >= TARGETS["concurrent_tournaments_min"],
        ),
        "poll_p99_ms": check(p99, p99 is not None and p99 <= TARGETS["poll_p99_ms_max"]),
        "errors": check(report["requests"]["errors"], report["requests"]["errors"] == 0),
        "staleness_p95_ms": check(
            stale, stale is not None and stale <= TARGETS["staleness_p95_ms_max"]
        ),
        "round_notice_p95_ms": check(
            notice, notice is not None and notice <= TARGETS["round_notice_p95_ms_max"]
        ),
        "cost_per_tournament_usd": check(
            usd, usd is not None and usd <= TARGETS["cost_per_tournament_usd_max"]
        ),
        "naive_over_measured": check(
            ratio, ratio is not None and ratio >= TARGETS["naive_over_measured_min"]
        ),
    }


def summary(report: dict[str, Any]) -> str:
    """The report as a few lines of text."""
    req = report["requests"]
    lines = [
        f"{report['tournaments']['concurrent']} concurrent tournaments for "
        f"{report['elapsed_s']:.0f} s: {req['total']} requests, {req['per_second']:.1f}/s, "
        f"{req['errors']} errors",
    ]
    if report["server"] is not None:
        lines.append(f"server counted {report['server']['total']} requests")
    lines.append(f"{'endpoint':<52} {'count':>6} {'err':>4} {'p50':>7} {'p95':>7} {'p99':>7} ms")
    for label, row in req["by_endpoint"].items():
        lat = row["latency_ms"]
        lines.append(
            f"{label:<52} {row['count']:>6} {row['errors']:>4} "
            f"{lat['p50']:>7.1f} {lat['p95']:>7.1f} {lat['p99']:>7.1f}"
        )
    for kind, n in report["requests"]["error_kinds"].items():
        lines.append(f"  error: {kind} × {n}")
    polls = report["polls"]
    ppm = polls["per_player_minute"]
    lines.append(
        f"polls: {polls['count']} ({polls['not_modified']} not modified), "
        f"{ppm:.1f} per player-minute"
        if ppm is not None
        else "polls: none"
    )
    for name, rate in polls["per_player_minute_by_situation"].items():
        lines.append(f"  {name:<20} {rate:5.1f}")
    stale = report["staleness_ms"]
    if stale["count"]:
        lines.append(
            f"staleness (guess → opponent sees it): p50 {stale['p50']:.0f} ms, "
            f"p95 {stale['p95']:.0f} ms, max {stale['max']:.0f} ms over {stale['count']} rows"
        )
    notice = report["round_notice_ms"]
    if notice["count"]:
        lines.append(
            f"new round seen (intro start → a player of it sees it): p50 {notice['p50']:.0f} ms, "
            f"p95 {notice['p95']:.0f} ms, max {notice['max']:.0f} ms over {notice['count']}"
        )
    t = report["tournaments"]
    lines.append(f"tournaments: {t['started']} started, {t['finished']} finished")
    cost = report["cost_per_tournament"]
    if cost.get("measured"):
        m, n = cost["measured"], cost["naive"]
        lines.append(f"per tournament ({cost['basis']}):")
        for name, entry in (("measured", m), ("naive (computed)", n)):
            u, usd = entry["usage"], entry["usd"]
            lines.append(
                f"  {name:<17} {u['requests']:>8.0f} req  {u['read_units']:>8.0f} RRU "
                f"{u['write_units']:>7.0f} WRU  ${usd['total']:.5f} "
                f"(API ${usd['api_gateway']:.5f}, Lambda ${usd['lambda']:.5f}, "
                f"DynamoDB ${usd['dynamodb']:.5f}, logs ${usd['logs']:.5f})"
            )
        if cost["naive_over_measured"]:
            lines.append(f"  naive / measured: {cost['naive_over_measured']:.2f}×")
        memory = cost["price_model"]["lambda_memory_mb"]
        lines.append(
            f"  Lambda priced at {memory} MB, {cost['price_model']['duration']} durations; "
            f"CPU {cost.get('cpu_ms_per_request') or 0:.2f} ms a request here"
        )
        for mb, row in cost.get("lambda_by_memory", {}).items():
            lines.append(
                f"    at {mb:>4} MB: {row['lambda_ms_per_request']:6.1f} ms a request "
                f"({row['lambda_ms_per_poll'] or 0:.1f} a poll), Lambda "
                f"${row['measured_usd']['lambda']:.5f}, total ${row['measured_usd']['total']:.5f}, "
                f"naive ${row['naive_usd']:.5f}: {row['naive_over_measured']:.2f}×"
            )
        doors = cost.get("by_front_door", {})
        if "function_url" in doors:
            door = doors["function_url"]
            lines.append(
                f"  behind a Lambda function URL instead (no gateway charge): measured "
                f"${door['measured_usd']:.5f}, naive ${door['naive_usd']:.5f}: "
                f"{door['naive_over_measured']:.2f}×"
            )
    lines.append("targets:")
    for name, entry in report["targets"].items():
        met = {True: "met", False: "MISSED", None: "n/a"}[entry["met"]]
        lines.append(f"  {name:<26} {entry['value']!s:<24} {met}")
    return "\n".join(lines)


def plot(harness: Harness, path: Path) -> None:
    """Latency over time (each request a dot, p99 per 5 s as a line) and requests per second."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    start = harness.started
    exchanges = list(harness.collector.exchanges)
    fig, (ax, ax_rate) = plt.subplots(
        2, 1, figsize=(11, 7), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    groups: dict[str, list[Exchange]] = defaultdict(list)
    for e in exchanges:
        kind = "state poll" if e.label == POLL else "guess" if "guesses" in e.label else "other"
        groups[kind].append(e)
    bucket = 5.0
    for name, rows in sorted(groups.items()):
        xs = [e.started - start for e in rows]
        points = ax.scatter(xs, [e.ms for e in rows], s=4, alpha=0.35, label=name)
        if name == "other":  # setup requests come in bursts: no line through the gaps
            continue
        buckets: dict[int, list[float]] = defaultdict(list)
        for e in rows:
            buckets[int((e.started - start) // bucket)].append(e.ms)
        keys = sorted(buckets)
        ax.plot(
            [(k + 0.5) * bucket for k in keys],
            [percentile(buckets[k], 99) for k in keys],
            color=points.get_facecolor()[0][:3],
            linewidth=1.5,
            label=f"{name} p99 per {bucket:g} s",
        )
    ax.axhline(250, color="red", linestyle="--", linewidth=1, label="poll p99 target 250 ms")
    ax.set_yscale("log")
    ax.set_ylabel("latency (ms, log)")
    ax.set_title(f"{harness.config.tournaments} concurrent tournaments: latency over time")
    ax.legend(loc="upper right", fontsize=8)
    per_second = Counter(int(e.started - start) for e in exchanges)
    seconds = range(int(harness.ended - start) + 1)
    ax_rate.plot(list(seconds), [per_second.get(s, 0) for s in seconds], linewidth=1)
    ax_rate.set_ylabel("requests/s")
    ax_rate.set_xlabel("seconds since start")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
