"""`bench scale` end to end: the sample (once), the queue at the size of each N, and the
figures for each N."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from api.scale.model import report, scale
from api.scale.plan import creations_for, layout_for
from api.scale.population import Population
from api.scale.queue import run_queue
from api.scale.sample import Sample, SampleResult, load_words
from api.storage.layout import Layout

GUESSED_WAIT_S = 2.0  # the queue's wait before the queue run measures it (the cycle's 0.5 %)


@dataclass(frozen=True)
class Options:
    players: Sequence[int]
    # The shard counts and the creation ceiling for N (default: the plan, api/scale/plan.py).
    layout: Callable[[int], Layout] = layout_for
    creations_per_minute: Callable[[int], int] = creations_for
    population: Population = field(default_factory=Population)
    queue_tournaments: int = 6
    groups: int = 3
    group_rounds: int = 2
    queue_joins: int = 4_000
    seed: int = 1


def joins_per_s(players: int, population: Population, sample: SampleResult) -> float:
    """Queue joins per second of N players, before the queue's wait is measured."""
    played = [p for p in sample.queue_players if p.played]
    active_ms = sum(p.active_ms for p in played) / max(1, sum(p.played for p in played))
    cycle = active_ms / 1000 + population.after_s + GUESSED_WAIT_S
    return players * (1 - population.group_share) / cycle


def run_scale(options: Options, progress: TextIO | None = None) -> list[dict[str, Any]]:
    """The figures for each N of `options.players`, in order."""
    started = time.perf_counter()

    def say(text: str) -> None:
        if progress is not None:
            print(f"[{time.perf_counter() - started:5.1f} s] {text}", file=progress, flush=True)

    load_words(list(options.population.languages))
    say(
        f"sample: {options.queue_tournaments} queued tournaments and {options.groups} groups "
        f"× {options.group_rounds}, in simulated time ..."
    )
    # What a tournament costs does not depend on N nor on the shard counts (a hashed family's
    # load is summed, then spread over the counts of each N): one sample serves every N.
    first = options.players[0]
    sample = Sample(
        options.layout(first), options.population, options.seed, options.creations_per_minute(first)
    ).run(options.queue_tournaments, options.groups, options.group_rounds)
    results = []
    for players in options.players:
        layout = options.layout(players)
        ceiling = options.creations_per_minute(players)
        rate = joins_per_s(players, options.population, sample)
        say(f"{players:,} players: the queue at {rate:,.1f} joins/s, every language ...")
        queue = run_queue(
            layout, options.population, rate, options.seed, options.queue_joins, ceiling
        )
        scaled = scale(players, layout, options.population, sample, queue, ceiling)
        queue.world.close()
        figures = report(scaled)
        figures["creations_per_minute"] = ceiling
        results.append(figures)
    sample.world.close()
    say("done")
    return results
