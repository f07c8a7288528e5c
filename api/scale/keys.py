"""Every key at N: what kind of key it is, and its load (api/scale/model.py says how each kind
scales, docs/capacity.md why)."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from api.scale.queue import QueueResult
from api.scale.sample import SampleResult
from api.storage.dynamodb.history import ACTIVE_READ_UNITS_PER_S
from api.storage.dynamodb.small_items import clock_attributes
from api.storage.keys import (
    ACTIVE_INDEX,
    ACTIVE_SHARDS,
    ACTIVE_SPREAD,
    CLOCK,
    FILL,
    active_key,
    clock_copy_key,
)
from api.storage.metering.billing import item_size, read_units, write_units
from api.storage.metering.traffic import TABLE, KeyRate
from api.storage.records import ClockRecord

_ENTITY = re.compile(r"[a-z]_[0-9a-f]{16}|\d+\.\d+\.\d+\.\d+")
_HASHED = re.compile(r"(D|DL)#\d+|A#\d+(#\d+)?")  # deadline shards, the active players' keys
_SPREAD = re.compile(r"(R#[^#]*\*)(#\d+)?")  # a shared budget's counter, maybe sharded
_COPIES = re.compile(r"(B#(?!part#)[^#]+)#\d+")  # a leaderboard snapshot, in copies
# Read by every instance every so often (the heartbeat, or one of its copies).
_INSTANCE = re.compile(re.escape(CLOCK) + r"(#\d+)?")

# A phase's tally holds only that phase's units: all of them count, to the last bucket (a window
# of the queue run seldom ends on a bucket's edge).
WHOLE = (0, 2**62)

# The heartbeat is beaten once per interval; instances refreshing in the same moment as the one
# that beats also try (a conditional put that fails): about this long a window each.
RACING_S = 0.02


def key_kind(index: str, key: str) -> str:
    """`entity`, `hashed`, `queue` (measured at full size), `instance` or `shared`."""
    if index != TABLE and _HASHED.fullmatch(key):
        return "hashed"
    if index == TABLE and (_SPREAD.fullmatch(key) or _COPIES.fullmatch(key)):
        return "hashed"
    if index == TABLE and _INSTANCE.fullmatch(key):
        return "instance"
    if key.startswith(FILL):
        return "queue"
    if _ENTITY.search(key):
        return "entity"
    return "shared"


def imbalance(items_per_shard: float) -> float:
    """The busiest of many shards against the mean, each the sum of about `items_per_shard`
    independent items (Poisson: 3 standard deviations)."""
    return 1.0 + 3.0 / math.sqrt(max(items_per_shard, 1.0))


def refresh_reads(sample: SampleResult, active: float) -> float:
    """Read units a second on an `active` partition while the leaderboards' refresh reads it,
    with `active` players on the boards: the sample's units per entry, times a part's entries,
    at most the adapter's pace (api/storage/dynamodb/history.py)."""
    phase = sample.world.phases.get("refresh")
    if phase is None or not sample.refreshes:
        return 0.0
    read = sum(
        r for (index, _), (r, _) in phase.tally.totals(*WHOLE).items() if index == ACTIVE_INDEX
    )
    per_entry = read / sample.refreshes / max(1, sample.active_players)
    return min(ACTIVE_READ_UNITS_PER_S, per_entry * active / (ACTIVE_SHARDS * ACTIVE_SPREAD))


def spread_key(n: int) -> str:
    """The n-th key of the `active` index: part n % PARTS, its (n // PARTS)-th key."""
    return active_key(n % ACTIVE_SHARDS, n // ACTIVE_SHARDS)


def heartbeat_copies(
    instances: float, copies: int, beat_s: float
) -> dict[str, tuple[float, float]]:
    """(read, write) units a second on the heartbeat and each of its copies at N
    (api/service/outages.py): every instance reads a copy at random once per interval; the
    first reader of a copy to find it old reads the heartbeat consistently (beating it if it
    is old) and writes the copy, and so do those who find it old at the same moment."""
    size = item_size(clock_attributes(ClockRecord(0, ((0, 1),))))
    eventual, strong = read_units(size, consistent=False), read_units(size)
    written = write_units(size)
    per_copy = instances / beat_s / copies * imbalance(instances / copies)
    racing = per_copy * RACING_S  # readers of a copy finding it old in the same moment
    refills = (1 + racing) / beat_s  # a copy's refreshes from the heartbeat, a second
    found = {clock_copy_key(n): (per_copy * eventual, refills * written) for n in range(copies)}
    beats = (1 + copies * refills * RACING_S) / beat_s  # one a beat, and who races it
    found[CLOCK] = (copies * refills * strong + beats * strong, beats * written)
    return found


def family(index: str, key: str) -> str:
    """The family of a hashed key: `D`, `DL`, `A`, a shared budget's counter `R#create:*`, a
    leaderboard's copies `B#en`."""
    if index == TABLE:
        found = _SPREAD.fullmatch(key) or _COPIES.fullmatch(key)
        if found:
            return found.group(1)
    return key.split("#")[0]


def key_loads(
    sample: SampleResult,
    queue: QueueResult,
    rates: dict[str, float],
    queue_rate: float,
    shards: Callable[[str, str], int],
    live: float,
    instances: float,
    refreshing: float,
    copies: int = 0,
    beat_s: float = 9.5,
) -> tuple[list[KeyRate], dict[str, KeyRate]]:
    """Every key's load at N, and the table's and each index's in all. `shards`: each hashed
    family's shard count; `live`: tournaments live at once; `instances`: Lambda execution
    environments (each its own heartbeat view, refreshed every `beat_s`, from one of `copies`
    copies if there are any); `refreshing`: read units a second on an `active` partition while
    the leaderboards' refresh reads it."""
    loads: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    hashed: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    entity: dict[tuple[str, str], KeyRate] = {}
    singles: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # one-item keys, by index

    def peak(rate: KeyRate) -> None:
        seen = entity.get((rate.index, rate.key))
        if seen is None or rate.utilisation > seen.utilisation:
            entity[rate.index, rate.key] = rate

    seconds = (sample.ended_at - sample.started_at) / 1000
    for name, phase in sample.world.phases.items():
        rate = rates.get(name)
        for (index, key), (r, w) in phase.tally.totals(*WHOLE).items():
            kind = key_kind(index, key)
            if kind == "instance" and copies:
                continue  # the sample's one instance finds its copies old: modelled below
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
        for one in phase.tally.peaks(*WHOLE):
            if key_kind(one.index, one.key) == "entity":
                peak(one)
    for name, phase in queue.world.phases.items():
        if name not in ("queue", "sweep"):
            continue  # before and after the measured window
        # The window's units, `queue_rate` times a second; the sweep's (once), once a minute.
        factor = queue_rate if name == "queue" else 1 / 60
        for (index, key), (r, w) in phase.tally.totals(*WHOLE).items():
            kind = key_kind(index, key)
            if kind == "entity":
                singles[index][0] += r * factor
                singles[index][1] += w * factor
            if kind in ("entity", "instance"):
                continue
            loads[index, key][0] += r * factor
            loads[index, key][1] += w * factor
        for one in phase.tally.peaks(*WHOLE):
            if key_kind(one.index, one.key) == "entity":
                peak(one)
    if copies:
        for key, (r, w) in heartbeat_copies(instances, copies, beat_s).items():
            loads[TABLE, key][0] += r
            loads[TABLE, key][1] += w
    if refreshing:
        for n in range(shards(ACTIVE_INDEX, "A")):
            loads[ACTIVE_INDEX, spread_key(n)][0] += refreshing
    for (index, prefix), (r, w) in hashed.items():
        count = shards(index, prefix)
        items = live / count if prefix == "D" else (r + w) / count
        spread = imbalance(items)
        for n in range(count):
            if prefix == "A":
                key = spread_key(n)
            else:
                key = f"{prefix}#{n}" if count > 1 or prefix in ("D", "DL") else prefix
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
    if kind == "instance" and key != CLOCK:
        return CLOCK + "#*"  # the heartbeat's copies
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
