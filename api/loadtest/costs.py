"""Cost per tournament: what the measured requests cost, beside the naive policy (every player
polls every second while in the tournament, and every poll writes)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from api.bots.client import STATE
from api.bots.http import Exchange
from api.loadtest.harness import Harness, TournamentRun
from api.loadtest.prices import MEMORY_SIZES, Bill, PriceModel
from api.loadtest.stack import Served
from api.storage.metering.meter import Meter

POLL = f"GET {STATE}"


def _bill(
    exchanges: Sequence[Exchange], served: dict[str, Served], prices: PriceModel
) -> tuple[Bill, Bill]:
    """(all requests, state polls only) as billed."""
    total = polls = Bill(0, 0, 0, 0)
    for e in exchanges:
        s = served.get(e.request_id)
        ms = e.ms if s is None else prices.request_ms(s.cpu_ms, s.calls_by_operation, s.ms)
        one = Bill(
            1,
            prices.lambda_gb_seconds(ms),
            s.read_units if s is not None else 0.0,
            s.write_units if s is not None else 0.0,
            s.log_bytes if s is not None else 0.0,
        )
        total += one
        if e.label == POLL:
            polls += one
    return total, polls


def _per_touch_write(meter: Meter | None, fallback: float) -> float:
    """Write units of one last-contact write, as the meter measured them."""
    if meter is not None:
        touch = meter.by_operation().get("touch")
        if touch is not None and touch.calls:
            return touch.write_units / touch.calls
    return fallback


def costs(
    harness: Harness,
    served: dict[str, Served],
    prices: PriceModel,
    meter: Meter | None,
) -> dict[str, Any]:
    """The cost per tournament at the price model's memory size, and beside it at each of
    MEMORY_SIZES (the duration priced as deployed: `prices.deployed_ms`)."""
    found = _costs(harness, served, prices, meter)
    if found.get("measured") is None:
        return found
    answered = list(served.values())
    by_memory: dict[str, Any] = {}
    for mb in sorted({*MEMORY_SIZES, prices.lambda_memory_mb}):
        at = replace(prices, lambda_memory_mb=mb)
        other = found if mb == prices.lambda_memory_mb else _costs(harness, served, at, meter)
        ms = [at.request_ms(s.cpu_ms, s.calls_by_operation, s.ms) for s in answered]
        polls = [
            at.request_ms(s.cpu_ms, s.calls_by_operation, s.ms) for s in answered if s.label == POLL
        ]
        by_memory[str(mb)] = {
            "lambda_ms_per_request": sum(ms) / len(ms) if ms else None,
            "lambda_ms_per_poll": sum(polls) / len(polls) if polls else None,
            "measured_usd": other["measured"]["usd"],
            "naive_usd": other["naive"]["usd"]["total"],
            "naive_over_measured": other["naive_over_measured"],
        }
    cpu = [s.cpu_ms for s in answered]
    found["lambda_by_memory"] = by_memory
    found["by_front_door"] = {
        "api_gateway": _door(found, with_gateway=True),
        "function_url": _door(found, with_gateway=False),
    }
    found["cpu_ms_per_request"] = sum(cpu) / len(cpu) if cpu else None
    return found


def _door(found: dict[str, Any], with_gateway: bool) -> dict[str, Any]:
    """Both bills behind API Gateway's HTTP API (as deployed) or behind a Lambda function URL,
    which has no per-request charge of its own (the invocation's $0.20 a million is Lambda's,
    in both): the same bills without their gateway charge."""
    usd = {policy: found[policy]["usd"] for policy in ("measured", "naive")}
    measured, naive = (
        bill["total"] - (0.0 if with_gateway else bill["api_gateway"]) for bill in usd.values()
    )
    return {
        "measured_usd": measured,
        "naive_usd": naive,
        "naive_over_measured": naive / measured if measured else None,
    }


def _costs(
    harness: Harness,
    served: dict[str, Served],
    prices: PriceModel,
    meter: Meter | None,
) -> dict[str, Any]:
    runs = list(harness.collector.runs.values())
    finished = [r for r in runs if r.finished]
    basis: list[TournamentRun] = finished or [r for r in runs if r.tournament_id]
    if not basis:
        return {"basis": "no tournament started", "measured": None, "naive": None}
    by_tag: dict[str | None, list[Exchange]] = defaultdict(list)
    for e in harness.collector.exchanges:
        by_tag[e.tag].append(e)
    measured = naive = Bill(0, 0, 0, 0)
    all_polls = [e for e in harness.collector.exchanges if e.label == POLL]
    _, poll_bill = _bill(all_polls, served, prices)
    n_polls = max(1, len(all_polls))
    guess_writes = [
        served[e.request_id].write_units
        for e in harness.collector.exchanges
        if "guesses" in e.label and e.request_id in served
    ]
    touch_write = _per_touch_write(
        meter, sum(guess_writes) / len(guess_writes) if guess_writes else 0.0
    )
    for run in basis:
        total, polls = _bill(by_tag[run.tag], served, prices)
        measured += total
        # The naive policy: every player in the tournament polls every second while playing,
        # and every poll writes (no coalesced last-contact); everything else as measured, its
        # polls logged like the measured ones.
        naive_polls = run.active_s
        per_poll = poll_bill.scaled(1 / n_polls)
        naive += (
            total
            + polls.scaled(-1)
            + Bill(
                naive_polls,
                per_poll.gb_seconds * naive_polls,
                per_poll.read_units * naive_polls,
                touch_write * naive_polls,
                per_poll.log_bytes * naive_polls,
            )
        )
    count = len(basis)
    m, n = measured.scaled(1 / count), naive.scaled(1 / count)
    m_usd, n_usd = m.dollars(prices), n.dollars(prices)
    return {
        "basis": (
            f"{count} finished tournament(s)"
            if finished
            else f"{count} unfinished tournament(s): partial, not a full tournament"
        ),
        "complete": bool(finished),
        "price_model": prices.as_dict(),
        "measured": {"usage": _usage(m), "usd": m_usd},
        "naive": {
            "computed": True,
            "policy": "a poll every second per player, a write on every poll",
            "write_units_per_poll": touch_write,
            "usage": _usage(n),
            "usd": n_usd,
        },
        "naive_over_measured": n_usd["total"] / m_usd["total"] if m_usd["total"] else None,
    }


def _usage(bill: Bill) -> dict[str, float]:
    return {
        "requests": bill.requests,
        "lambda_gb_seconds": bill.gb_seconds,
        "read_units": bill.read_units,
        "write_units": bill.write_units,
        "log_bytes": bill.log_bytes,
    }
