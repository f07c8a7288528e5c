"""From the sample and the queue to N concurrent players: request rates, Lambda concurrency,
the load of every key of the table and its indexes at full size, and the bill.

How each key's load scales (api/scale/keys.py; docs/capacity.md explains why):

- a key of one item (a player, tournament, lobby, group; a rate-limit counter of one player or
  address) carries what its own players do, whatever N is: its busiest moment as measured;
- a hash shard (`D#<n>`, `DL#<n>`, `A#<n>`, a global budget's counter shard, a leaderboard's
  copy) carries its share of every item hashed there: the family's total at N divided by the
  shard count, times the imbalance of a finite hash (about 1 + 3/√M for M items a shard);
- the queue's keys (every `fill` shard, the lobbies' `due` shards) come from the queue run at the
  full arrival rate, so they are as measured;
- storage's heartbeat is read by every busy Lambda instance: the sample's one instance, times
  the concurrency at N; an `active` part, while the leaderboards' refresh reads it, at its pace;
- any other key (one item shared by everyone) carries everything that reaches it: its units per
  tournament, join or session, times their rate at N.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from api.loadtest.prices import Bill, PriceModel, cpu_share, waits_ms
from api.scale.keys import families, key_loads, refresh_reads
from api.scale.population import Population
from api.scale.queue import QueueResult
from api.scale.sample import SampleResult
from api.scale.world import Phase
from api.service.limits import Budget, spread_shards
from api.storage.dynamodb.history_items import COPIES
from api.storage.keys import ACTIVE_INDEX, ACTIVE_SHARDS, ACTIVE_SPREAD, DUE_INDEX, counter_key
from api.storage.layout import Layout
from api.storage.metering.traffic import TABLE, KeyRate, index_names

PLAY_PHASES = ("play", "after", "group")
SWEEP_LIMIT = 500  # due tournaments one sweep advances (Service.sweep)
# Lambda's synchronous invocation rate: 10 requests a second per unit of concurrency quota.
INVOCATIONS_PER_CONCURRENCY = 10
SWEEPS_PER_S = 1 / 60  # the scheduled sweep, once a minute


@dataclass
class Load:
    """Requests and the work behind them, per second at N."""

    requests: float = 0.0
    cpu_ms: float = 0.0  # measured here, summed
    calls: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    read_units: float = 0.0
    write_units: float = 0.0
    log_bytes: float = 0.0

    def add(self, phase: Phase, rate: float) -> None:
        """`phase`'s totals, happening `rate` times per second."""
        self.requests += phase.count * rate
        self.cpu_ms += phase.cpu_ms * rate
        for name, n in phase.calls.items():
            self.calls[name] += n * rate
        self.read_units += phase.read_units * rate
        self.write_units += phase.write_units * rate
        self.log_bytes += phase.log_bytes * rate

    def lambda_ms(self, memory_mb: int) -> float:
        """Lambda milliseconds per second: the handlers' CPU at the function's share of a vCPU,
        plus each storage call's round trip."""
        return self.cpu_ms * cpu_share(memory_mb) + waits_ms(self.calls)


@dataclass
class Scaled:
    players: int
    layout: Layout
    cycle_s: dict[str, float]
    rates: dict[str, float]  # tournaments, joins, sessions per second
    concurrent_tournaments: float
    api: Load  # through API Gateway
    sweep: Load  # the scheduled function
    keys: list[KeyRate]  # every key at N, the most loaded first
    queue_wait_s: float
    prices: PriceModel
    sweep_due: float = 0.0  # due tournaments a sweep finds at N (it advances SWEEP_LIMIT)
    phases: dict[str, Load] = field(default_factory=dict)  # the API's load by phase of the cycle
    totals: dict[str, KeyRate] = field(default_factory=dict)  # units/s of the table, each index

    @property
    def lambda_concurrency(self) -> float:
        memory = self.prices.lambda_memory_mb
        return (self.api.lambda_ms(memory) + self.sweep.lambda_ms(memory)) / 1000

    @property
    def lambda_concurrency_quota(self) -> float:
        """The account's concurrency quota this load needs: Lambda also caps synchronous
        invocations at 10 a second per unit of that quota, which short requests reach first."""
        invocations = self.api.requests + SWEEPS_PER_S
        return max(self.lambda_concurrency, invocations / INVOCATIONS_PER_CONCURRENCY)

    def bill_per_hour(self) -> dict[str, float]:
        api, sweep, prices = self.api, self.sweep, self.prices
        gb_s = api.lambda_ms(prices.lambda_memory_mb) + sweep.lambda_ms(prices.lambda_memory_mb)
        gb_s = gb_s / 1000 * prices.lambda_memory_mb / 1024
        hour = 3600
        bill = Bill(
            api.requests * hour,
            gb_s * hour,
            (api.read_units + sweep.read_units) * hour,
            (api.write_units + sweep.write_units) * hour,
            api.log_bytes * hour,
        )
        dollars = bill.dollars(prices)
        # The sweep is invoked by EventBridge, not API Gateway: take its requests back out.
        dollars["api_gateway"] = api.requests * hour * prices.api_gateway_per_request
        dollars["lambda"] += SWEEPS_PER_S * hour * prices.lambda_per_request
        dollars["total"] = sum(v for k, v in dollars.items() if k != "total")
        return dollars

    def hottest(self, index: str | None = None) -> KeyRate:
        keys = [k for k in self.keys if index is None or k.index == index]
        return keys[0] if keys else KeyRate(index or TABLE, "-", 0.0, 0.0)


def scale(
    players: int,
    layout: Layout,
    population: Population,
    sample: SampleResult,
    queue: QueueResult,
    creations_per_minute: int,
    prices: PriceModel | None = None,
) -> Scaled:
    prices = prices or PriceModel()
    phases = sample.world.phases
    q_players = [p for p in sample.queue_players if p.played]
    active_q = sum(p.active_ms for p in q_players) / max(1, sum(p.played for p in q_players))
    duration = sum(sample.durations_ms) / max(1, len(sample.durations_ms))
    wait = queue.wait_ms
    after = population.after_s * 1000
    cycle_q = (active_q + after + wait) / 1000
    cycle_g = (duration + after) / 1000
    g = population.group_share
    q_rate = players * (1 - g) / cycle_q / 8  # queue tournaments per second
    g_rate = players * g / cycle_g / 8
    cycle = (1 - g) * cycle_q + g * cycle_g
    sessions = players / (population.cycles_per_session * cycle)
    joins = 8 * q_rate
    concurrent = (q_rate + g_rate) * duration / 1000

    # What one unit of each phase stands for, per second at N.
    per_kind = {"q": q_rate / max(1, sample.queue_tournaments)}
    per_kind["g"] = g_rate / max(1, sample.group_tournaments)
    new = population.new_player_share
    per_session = sessions / max(1, sample.sessions)
    session_rates = {"new": per_session * new, "back": per_session * (1 - new)}
    queue_rate = joins / max(queue.joins_per_s, 1e-9) / queue.seconds  # the queue run's window

    api, sweep_load = Load(), Load()
    by_phase: dict[str, Load] = defaultdict(Load)
    rates_by_phase: dict[str, float] = {}
    for name, phase in phases.items():
        base, _, kind = name.partition(":")
        if base in PLAY_PHASES and kind in per_kind:
            rate = per_kind[kind]
        elif base == "session" and kind in session_rates:
            rate = session_rates[kind]
        elif base == "sweep":
            rate = 0.0  # the sample's sweep: scaled apart below
        elif base == "refresh":
            rate = 1 / 60 / max(1, sample.refreshes)  # once a minute, whatever N is
        else:
            continue  # the sample's own queue: measured at full size in the queue run
        rates_by_phase[name] = rate
        if base == "refresh":  # in the scheduled function, not a request
            sweep_load.add(phase, rate)
            continue
        api.add(phase, rate)
        by_phase[base].add(phase, rate)
    queue_phases = queue.world.phases
    if "queue" in queue_phases:
        api.add(queue_phases["queue"], queue_rate)
        by_phase["queue"].add(queue_phases["queue"], queue_rate)
    sweep_runs = SWEEPS_PER_S
    # Once a minute the sweep finds the tournaments past a deadline that no poll has advanced
    # yet: the share the sample saw at any moment, of the live ones at N. It advances at most
    # SWEEP_LIMIT of them (the earliest); what the sample's sweeps did, per tournament advanced.
    due_at_n = sample.due_share * concurrent
    if "sweep" in phases and sample.sweep_due:
        runs = len(sample.sweep_due)
        advanced = max(1.0, sum(sample.sweep_due) / runs)
        sweep_load.add(phases["sweep"], sweep_runs / runs * min(SWEEP_LIMIT, due_at_n) / advanced)
    if "sweep" in queue_phases:
        sweep_load.add(queue_phases["sweep"], sweep_runs)

    memory = prices.lambda_memory_mb
    instances = (api.lambda_ms(memory) + sweep_load.lambda_ms(memory)) / 1000
    shards = {
        (DUE_INDEX, "D"): layout.due_shards,
        (DUE_INDEX, "DL"): layout.lobby_due_shards,
        (ACTIVE_INDEX, "A"): ACTIVE_SHARDS * ACTIVE_SPREAD,
        (TABLE, counter_key("create:*")): spread_shards(Budget(creations_per_minute, 60)),
    }
    keys, totals = key_loads(
        sample,
        queue,
        rates_by_phase,
        queue_rate,
        lambda index, prefix: shards.get((index, prefix), COPIES),
        concurrent,
        instances,
        refresh_reads(sample, players * population.active_per_player),
        layout.clock_copies,
        sample.world.ctx.settings.heartbeat_ms / 1000,
    )
    return Scaled(
        players,
        layout,
        {"queue": cycle_q, "group": cycle_g},
        {
            "queue_tournaments": q_rate,
            "group_tournaments": g_rate,
            "joins": joins,
            "sessions": sessions,
            "new_players": sessions * new,
        },
        concurrent,
        api,
        sweep_load,
        keys,
        wait / 1000,
        prices,
        due_at_n,
        dict(by_phase),
        totals,
    )


def report(s: Scaled) -> dict[str, Any]:
    """The figures as JSON."""
    bill = s.bill_per_hour()
    per_hour = (s.rates["queue_tournaments"] + s.rates["group_tournaments"]) * 3600
    by_index = {name: s.hottest(name).as_dict() for name in (TABLE, *index_names())}
    return {
        "players": s.players,
        "requests_per_s": round(s.api.requests, 1),
        "lambda_concurrency": round(s.lambda_concurrency, 1),
        "lambda_concurrency_quota": round(s.lambda_concurrency_quota, 1),
        "lambda_ms_per_request": round(
            s.api.lambda_ms(s.prices.lambda_memory_mb) / max(s.api.requests, 1e-9), 2
        ),
        "dynamodb": {
            "hottest": s.hottest().as_dict(),
            "hottest_by_index": by_index,
            "read_units_per_s": round(s.api.read_units + s.sweep.read_units, 1),
            "write_units_per_s": round(s.api.write_units + s.sweep.write_units, 1),
            "families": families(s.keys)[:25],
            "totals": {
                name: {
                    "read_units_per_s": round(t.read_units_per_s),
                    "write_units_per_s": round(t.write_units_per_s),
                }
                for name, t in s.totals.items()
            },
        },
        "layout": s.layout.describe(),
        "tournaments_per_hour": round(per_hour),
        "concurrent_tournaments": round(s.concurrent_tournaments),
        "joins_per_s": round(s.rates["joins"], 1),
        "sessions_per_s": round(s.rates["sessions"], 1),
        "new_players_per_minute": round(60 * s.rates["new_players"]),
        "queue_wait_s": round(s.queue_wait_s, 2),
        "sweep_due_per_run": round(s.sweep_due),
        "cost_per_hour_usd": round(bill["total"], 2),
        "cost_by_service_per_hour_usd": {k: round(v, 2) for k, v in bill.items() if k != "total"},
        "cost_per_tournament_usd": round(bill["total"] / max(per_hour, 1e-9), 6),
        "phases": {
            name: {
                "requests_per_s": round(load.requests, 1),
                "lambda_ms_per_request": round(
                    load.lambda_ms(s.prices.lambda_memory_mb) / max(load.requests, 1e-9), 2
                ),
                "read_units_per_s": round(load.read_units, 1),
                "write_units_per_s": round(load.write_units, 1),
            }
            for name, load in sorted(s.phases.items(), key=lambda kv: -kv[1].requests)
        },
    }
