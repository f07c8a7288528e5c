"""From the sample and the queue to N concurrent players: request rates, Lambda concurrency,
the load of every key of the table and its indexes at full size, and the bill.

How each key's load scales (docs/capacity.md explains why):

- a key of one item (a player, tournament, lobby, group; a rate-limit counter of one player or
  address) carries what its own players do, whatever N is: its busiest 10 s as measured;
- a hash shard (`D#<n>`, `DL#<n>`) carries its share of every item hashed there: the family's
  total at N divided by the shard count, times the imbalance of a finite hash (the busiest of S
  shards, each the sum of M items, is about 1 + 3/√M times the mean);
- the queue's keys (every `fill` shard, the lobbies' `due` shards) come from the queue run at the
  full arrival rate, so they are as measured;
- any other key (one item shared by everyone: a global counter, a heartbeat) carries everything
  that reaches it: its units per tournament, join or session, times their rate at N.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from api.loadtest.prices import Bill, PriceModel
from api.scale.population import Population
from api.scale.queue import QueueResult
from api.scale.sample import SampleResult
from api.scale.world import Phase
from api.service.limits import Budget, spread_shards
from api.storage.dynamo_results import ACTIVE_READ_UNITS_PER_S
from api.storage.layout import Layout
from api.storage.result_items import COPIES
from api.storage.small_items import CLOCK_KEY
from api.storage.table import ACTIVE_INDEX, ACTIVE_SHARDS, DUE_INDEX
from api.storage.traffic import TABLE, KeyRate, index_names

# What a storage call adds to a request's time on Lambda, beyond the handler's own CPU:
# DynamoDB's in-region latency with botocore's work (AWS: single-digit milliseconds).
CALL_MS = {"commit": 9.0, "open_lobbies": 5.0, "due_tournaments": 5.0, "due_lobbies": 5.0}
DEFAULT_CALL_MS = 5.0
FULL_VCPU_MB = 1769  # Lambda's memory at which a function gets one whole vCPU

_ENTITY = re.compile(r"[a-z]_[0-9a-f]{16}|\d+\.\d+\.\d+\.\d+")
_HASHED = re.compile(r"(D|DL|A)#\d+")  # deadline shards, the active players' parts
_SPREAD = re.compile(r"(R#[^#]*\*)(#\d+)?")  # a shared budget's counter, maybe sharded
_COPIES = re.compile(r"(B#(?!part#)[^#]+)#\d+")  # a leaderboard snapshot, in copies
INSTANCE_KEYS = {CLOCK_KEY}  # read by every instance every so often (the heartbeat)

PLAY_PHASES = ("play", "after", "group")
SWEEP_LIMIT = 500  # due tournaments one sweep advances (Service.sweep)
# The heartbeat is beaten once per interval; instances refreshing in the same moment as the one
# that beats also try (a conditional put that fails): about this long a window each.
RACING_S = 0.02


def key_kind(index: str, key: str) -> str:
    """`entity`, `hashed`, `queue` (measured at full size), `instance` or `shared`."""
    if index != TABLE and _HASHED.fullmatch(key):
        return "hashed"
    if index == TABLE and (_SPREAD.fullmatch(key) or _COPIES.fullmatch(key)):
        return "hashed"
    if index == TABLE and key in INSTANCE_KEYS:
        return "instance"
    if key.startswith("O#"):
        return "queue"
    if _ENTITY.search(key):
        return "entity"
    return "shared"


def imbalance(items_per_shard: float) -> float:
    """The busiest of many shards against the mean, each the sum of about `items_per_shard`
    independent items (Poisson: 3 standard deviations)."""
    return 1.0 + 3.0 / math.sqrt(max(items_per_shard, 1.0))


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
        cpu = self.cpu_ms * max(1.0, FULL_VCPU_MB / memory_mb)
        waits = sum(n * CALL_MS.get(name, DEFAULT_CALL_MS) for name, n in self.calls.items())
        return cpu + waits


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
        dollars["lambda"] += (1 / 60) * hour * prices.lambda_per_request
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
    sweep_runs = 1 / 60
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
        (ACTIVE_INDEX, "A"): ACTIVE_SHARDS,
        (TABLE, "R#create:*"): spread_shards(Budget(creations_per_minute, 60)),
    }
    keys, totals = _keys(
        sample,
        queue,
        rates_by_phase,
        queue_rate,
        lambda index, prefix: shards.get((index, prefix), COPIES),
        concurrent,
        instances,
        refresh_reads(sample, players * population.active_per_player),
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


def refresh_reads(sample: SampleResult, active: float) -> float:
    """Read units a second on an `active` partition while the leaderboards' refresh reads it,
    with `active` players on the boards: the sample's units per entry, times a part's entries,
    at most the adapter's pace (api/storage/dynamo_results.py)."""
    phase = sample.world.phases.get("refresh")
    if phase is None or not sample.refreshes:
        return 0.0
    span = (sample.started_at, sample.ended_at + 1)
    read = sum(
        r for (index, _), (r, _) in phase.tally.totals(*span).items() if index == ACTIVE_INDEX
    )
    per_entry = read / sample.refreshes / max(1, sample.active_players)
    return min(ACTIVE_READ_UNITS_PER_S, per_entry * active / ACTIVE_SHARDS)


def family(index: str, key: str) -> str:
    """The family of a hashed key: `D`, `DL`, `A`, a shared budget's counter `R#create:*`, a
    leaderboard's copies `B#en`."""
    if index == TABLE:
        found = _SPREAD.fullmatch(key) or _COPIES.fullmatch(key)
        if found:
            return found.group(1)
    return key.split("#")[0]


def _keys(
    sample: SampleResult,
    queue: QueueResult,
    rates: dict[str, float],
    queue_rate: float,
    shards: Callable[[str, str], int],
    live: float,
    instances: float,
    refreshing: float,
) -> tuple[list[KeyRate], dict[str, KeyRate]]:
    """Every key's load at N, and the table's and each index's in all. `shards`: each hashed
    family's shard count; `live`: tournaments live at once; `instances`: Lambda execution
    environments (each its own heartbeat view); `refreshing`: read units a second on an
    `active` partition while the leaderboards' refresh reads it."""
    loads: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    hashed: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    entity: dict[tuple[str, str], KeyRate] = {}
    singles: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # one-item keys, by index

    def peak(rate: KeyRate) -> None:
        seen = entity.get((rate.index, rate.key))
        if seen is None or rate.utilisation > seen.utilisation:
            entity[rate.index, rate.key] = rate

    span = (sample.started_at, sample.ended_at + 1)
    seconds = (sample.ended_at - sample.started_at) / 1000
    for name, phase in sample.world.phases.items():
        rate = rates.get(name)
        for (index, key), (r, w) in phase.tally.totals(*span).items():
            kind = key_kind(index, key)
            if kind == "instance":  # the sample is one instance: its rate, times instances
                refreshes = instances * r / seconds / 0.5  # eventually consistent reads
                racing = refreshes * RACING_S  # failed beats per beat, each read again
                loads[index, key][0] += r / seconds * instances + 2 * w / seconds * racing
                loads[index, key][1] += w / seconds * (1 + racing)
            elif rate is None:
                continue  # the sample's own queue: measured at full size in the queue run
            elif name == "refresh" and index == ACTIVE_INDEX:
                continue  # the refresh's reads of a part: `refreshing`, below
            elif kind == "hashed":
                hashed[index, family(index, key)][0] += r * rate
                hashed[index, family(index, key)][1] += w * rate
            elif kind == "shared":
                loads[index, key][0] += r * rate
                loads[index, key][1] += w * rate
            else:
                singles[index][0] += r * rate
                singles[index][1] += w * rate
        for one in phase.tally.peaks(*span):
            if key_kind(one.index, one.key) == "entity":
                peak(one)
    start, end = queue.window_ms
    for name, phase in queue.world.phases.items():
        if name not in ("queue", "sweep"):
            continue  # before and after the measured window
        factor = queue_rate * queue.seconds if name == "queue" else queue.seconds / 60
        for one in phase.tally.rates(start, end):
            kind = key_kind(one.index, one.key)
            if kind == "entity":
                singles[one.index][0] += one.read_units_per_s * factor
                singles[one.index][1] += one.write_units_per_s * factor
            if kind in ("entity", "instance"):
                continue
            loads[one.index, one.key][0] += one.read_units_per_s * factor
            loads[one.index, one.key][1] += one.write_units_per_s * factor
        for one in phase.tally.peaks(start, end):
            if key_kind(one.index, one.key) == "entity":
                peak(one)
    if refreshing:
        for n in range(shards(ACTIVE_INDEX, "A")):
            loads[ACTIVE_INDEX, f"A#{n}"][0] += refreshing
    for (index, prefix), (r, w) in hashed.items():
        count = shards(index, prefix)
        items = live / count if prefix == "D" else (r + w) / count
        spread = imbalance(items)
        for n in range(count):
            key = f"{prefix}#{n}" if count > 1 or prefix in ("D", "DL", "A") else prefix
            loads[index, key][0] += r / count * spread
            loads[index, key][1] += w / count * spread
    found = [KeyRate(i, k, r, w) for (i, k), (r, w) in loads.items()]
    totals = {index: KeyRate(index, "*", r, w) for index, (r, w) in singles.items()}
    for k in found:
        total = totals.get(k.index, KeyRate(k.index, "*", 0.0, 0.0))
        totals[k.index] = KeyRate(
            k.index,
            "*",
            total.read_units_per_s + k.read_units_per_s,
            total.write_units_per_s + k.write_units_per_s,
        )
    found += entity.values()
    return sorted(found, key=lambda k: -k.utilisation), totals


def family_label(index: str, key: str) -> str:
    """What a key stands for, e.g. `T#…` (every tournament), `D#*` (the deadline shards),
    `O#en#5*` (English players' band 5, every shard), `R#join:p_…` (a player's join counter)."""
    kind = key_kind(index, key)
    if kind == "entity":
        found = _ENTITY.search(key)
        assert found is not None
        return key[: found.start()] + "…"
    if kind == "hashed":
        return family(index, key) + ("#*" if index != TABLE or "#" in key[2:] else "")
    if kind == "queue":
        return "#".join(key.split("#")[:3]) + "*"
    return key


def families(keys: list[KeyRate]) -> list[dict[str, Any]]:
    """The busiest key of each family, the most loaded first, with how many keys it has."""
    best: dict[tuple[str, str], KeyRate] = {}
    count: dict[tuple[str, str], int] = defaultdict(int)
    for k in keys:
        label = (k.index, family_label(k.index, k.key))
        count[label] += 1
        if label not in best:
            best[label] = k  # keys come the most loaded first
    return [
        {**best[label].as_dict(), "family": label[1], "keys_seen": count[label]}
        for label in sorted(best, key=lambda lb: -best[lb].utilisation)
    ]


def report(s: Scaled) -> dict[str, Any]:
    """The figures as JSON."""
    bill = s.bill_per_hour()
    per_hour = (s.rates["queue_tournaments"] + s.rates["group_tournaments"]) * 3600
    by_index = {name: s.hottest(name).as_dict() for name in (TABLE, *index_names())}
    return {
        "players": s.players,
        "requests_per_s": round(s.api.requests, 1),
        "lambda_concurrency": round(s.lambda_concurrency, 1),
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
