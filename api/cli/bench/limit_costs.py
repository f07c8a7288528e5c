"""`bench api`, continued: what rate limits (and D9 contact, and storage's heartbeat) add to a
request, with the sampled counters the service uses and with a counter write on every request.

The same tournament is played three times over HTTP (same seed, same clock): with limits off,
with the service's budgets, and with every budget exact (sample 1, the naive design).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from api.http import limits

READ_PRICE = 0.125  # $ per million read units, on demand
WRITE_PRICE = 0.625  # $ per million write units
GATEWAY_PRICE = 1.00  # $ per million HTTP API requests

Usage = dict[str, list[tuple[float, float]]]


@contextmanager
def exact_budgets() -> Iterator[None]:
    """Every budget counted on every request (the naive shared limit)."""
    saved = dict(limits.ROUTES)
    limits.ROUTES.update(
        {
            route: (None if token is None else replace(token, sample=1), replace(addr, sample=1))
            for route, (token, addr) in saved.items()
        }
    )
    try:
        yield
    finally:
        limits.ROUTES.clear()
        limits.ROUTES.update(saved)


def per_request(usage: Usage) -> dict[str, tuple[float, float, int]]:
    """Mean (read, write) units and the count, per request kind."""
    return {
        kind: (
            sum(r for r, _ in rows) / len(rows),
            sum(w for _, w in rows) / len(rows),
            len(rows),
        )
        for kind, rows in usage.items()
    }


def print_limit_costs(
    store: Any, seed: int, play: Callable[[Any, int, bool], tuple[Any, ...]]
) -> None:
    runs: dict[str, dict[str, tuple[float, float, int]]] = {}
    for name, rate_limits, naive in (
        ("off", False, False),
        ("sampled", True, False),
        ("exact", True, True),
    ):
        if naive:
            with exact_budgets():
                usage, repo, *_ = play(store, seed, rate_limits)
        else:
            usage, repo, *_ = play(store, seed, rate_limits)
        repo.delete_table()
        runs[name] = per_request(usage)
    print("What limits add per request (units; $ per million requests, beside API Gateway's $1):")
    print("  request       limits   read/req  write/req   added $/M")
    for kind in sorted(runs["off"]):
        base_r, base_w, _ = runs["off"][kind]
        for name in ("off", "sampled", "exact"):
            if kind not in runs[name]:
                continue
            r, w, _ = runs[name][kind]
            added = (r - base_r) * READ_PRICE + (w - base_w) * WRITE_PRICE
            label = kind if name == "off" else ""
            print(f"  {label:<12} {name:>8} {r:9.3f}  {w:9.3f}   {added:9.4f}")
