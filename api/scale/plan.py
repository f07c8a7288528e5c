"""Shard counts for N concurrent players, from the loads `bench scale` measures per player.

Each count is the smallest power of two that keeps a shard under `TARGET` of its partition's
write limit (writes are what these keys are short of; their reads are far below 3,000): the
goal is half, and the margin covers a finite hash's imbalance and a busier mix than modelled.
Never fewer than the defaults, so a small deployment keeps the layout it has.
"""

from __future__ import annotations

import math

from api.scale.population import LANGUAGE_MIX
from api.storage.layout import Layout, power_of_two

TARGET = 350.0  # write units per second and shard
# Write units per second per concurrent player, measured by bench scale at a million players
# (the figures in docs/capacity.md check the counts these give):
DUE_WRITES = 0.0248  # live tournaments' deadlines, all shards together
LOBBY_DUE_WRITES = 0.0031  # open lobbies' deadlines, all shards together
BAND_WRITES = 0.00147  # the busiest rating band of a language, per player of that language


# Read units a second per concurrent player on storage's heartbeat: each busy Lambda instance
# (about 0.0048 per player at 13-15 ms a request) reads it once per 9.5 s interval, 0.5 a read.
HEARTBEAT_READS = 0.00025
COPY_TARGET = 1_000.0  # read units per second and copy: a third of a partition


def clock_copies_for(players: int) -> int:
    """Copies of the heartbeat (WT_CLOCK_COPIES) for N players: none while the item itself
    stays under COPY_TARGET, then a power of two that keeps each copy under it."""
    reads = players * HEARTBEAT_READS
    return 0 if reads <= COPY_TARGET else power_of_two(reads / COPY_TARGET)


CREATIONS_PER_PLAYER_MINUTE = 0.04  # new players a minute per concurrent player: 3× the model


def creations_for(players: int) -> int:
    """The global ceiling on new players a minute (WT_CREATIONS_PER_MINUTE) that N players'
    new sessions fit in three times over (the model: half of the sessions are new players)."""
    return max(600, math.ceil(players * CREATIONS_PER_PLAYER_MINUTE / 100) * 100)


def layout_for(players: int, languages: dict[str, float] | None = None) -> Layout:
    default = Layout()
    mix = languages or LANGUAGE_MIX
    due = max(default.due_shards, power_of_two(players * DUE_WRITES / TARGET))
    lobby_due = max(default.lobby_due_shards, power_of_two(players * LOBBY_DUE_WRITES / TARGET))
    fill = {
        code: power_of_two(players * share * BAND_WRITES / TARGET) for code, share in mix.items()
    }
    sharded = tuple(sorted((code, n) for code, n in fill.items() if n > 1))
    return Layout(due, lobby_due, default.fill_shards, sharded, clock_copies_for(players))
