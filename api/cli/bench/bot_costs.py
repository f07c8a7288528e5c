"""`bench api`, continued: what a tournament of one person and seven house bots (D18) costs
beside one of eight people, both over HTTP with the sweep once a minute, as deployed.

A house bot's move is the write a person's guess would be (the tournament's conditional write),
made by whoever advances the tournament: the person's polls of the state, or the sweep once
nobody polls. The person plays and then watches to the end, polling as advised; the house bots
cost no requests of their own (no polls, no guesses through the API), only storage.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.cli.bench.limit_costs import GATEWAY_PRICE, READ_PRICE, WRITE_PRICE

Usage = dict[str, list[tuple[float, float]]]


def _totals(usage: Usage) -> tuple[int, float, float]:
    """Requests (the sweep aside), read units and write units of a whole tournament."""
    requests = sum(len(rows) for kind, rows in usage.items() if kind != "sweep")
    reads = sum(r for rows in usage.values() for r, _ in rows)
    writes = sum(w for rows in usage.values() for _, w in rows)
    return requests, reads, writes


def print_bot_costs(store: Any, seed: int, play: Callable[..., tuple[Any, ...]]) -> None:
    runs: dict[str, tuple[Usage, int]] = {}
    for name, people in (("8 people", 8), ("1 person + 7 bots", 1)):
        usage, repo, tid, *_ = play(store, seed, False, people=people, sweep=True)
        record = repo.get_tournament(tid)
        rounds = record.tournament.round.number if record is not None else 0
        repo.delete_table()
        runs[name] = (usage, rounds)
    print("A tournament with house bots beside one of eight people (the sweep once a minute):")
    print(
        "  tournament          rounds  requests  read units  write units  guesses"
        "  $ (DynamoDB + API)"
    )
    for name, (usage, rounds) in runs.items():
        requests, reads, writes = _totals(usage)
        guesses = len(usage.get("guess", []))
        dollars = (reads * READ_PRICE + writes * WRITE_PRICE + requests * GATEWAY_PRICE) / 1e6
        print(
            f"  {name:<18}  {rounds:6d}  {requests:8d}  {reads:10.1f}  {writes:11.1f}"
            f"  {guesses:7d}  {dollars:.5f}"
        )
    print("  per request kind (units per request), the tournament with bots:")
    for kind, rows in sorted(runs["1 person + 7 bots"][0].items()):
        r = sum(u[0] for u in rows) / len(rows)
        w = sum(u[1] for u in rows) / len(rows)
        print(f"    {kind:<12} {len(rows):6d}  {r:8.2f} r  {w:8.2f} w")
