"""Matchmaking over a sharded band (api/storage/layout.py, `nearby` in api/service/lobbies.py):
a reader reads its own fill shard first and the others only when its own shows nobody to play
with, so players listed in different shards still meet (D6, D15), and a busy shard spares the
others its readers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from api.config import Settings
from api.service.context import Context
from api.service.lobbies import nearby
from api.storage.layout import Layout
from api.storage.memory import InMemoryRepository
from api.storage.repository import Put, Repository
from tests.api.clock import FakeClock
from tests.api.conftest import game_for
from tests.api.repos import CountingRepo
from tests.conftest import MakeTable
from tests.storage.factories import lobby

SHARDS = 4
LAYOUT = Layout(fill_shards=SHARDS)


@pytest.fixture(params=["memory", "moto"])
def store(request: pytest.FixtureRequest, make_table: MakeTable, settings: Settings) -> Repository:
    if request.param == "memory":
        return InMemoryRepository(layout=LAYOUT)
    return make_table("moto", replace(settings, layout=LAYOUT))


def test_d6_d15_players_listed_in_different_fill_shards_meet_in_one_tournament(
    make_app: Callable[..., Any], clock: FakeClock, settings: Settings, store: Repository
) -> None:
    game = game_for(make_app(store, settings=replace(settings, layout=LAYOUT)), clock, store)
    players = game.new_players(8)
    homes = {LAYOUT.fill_shard("en", p.id) for p in players}
    assert len(homes) > 1  # they look first in different shards
    game.queue(players)  # the 8th seat starts it: one lobby for all eight
    assert Counter(game.me(p)["tournament_id"] for p in players).most_common(1)[0][1] == 8


def _lobbies_in_every_shard(repo: Repository) -> None:
    records = []
    for i in range(64):
        record = lobby(f"l{i:02d}", ratings=(1000, 1000))
        records.append(record)
    repo.commit([Put(r, new=True) for r in records[:32]])
    repo.commit([Put(r, new=True) for r in records[32:]])
    assert {LAYOUT.fill_shard("en", r.id) for r in records} == set(range(SHARDS))


def test_d6_a_reader_whose_own_shard_has_someone_reads_no_other(clock: FakeClock) -> None:
    counting = CountingRepo(InMemoryRepository(layout=LAYOUT))
    _lobbies_in_every_shard(counting)
    ctx = Context(counting, Settings(layout=LAYOUT), clock=clock)
    counting.reset()
    found = nearby(ctx, "en", 1000, "p_0123456789abcdef")
    reads = [args for name, args in counting.calls if name == "open_lobbies"]
    own = LAYOUT.fill_shard("en", "p_0123456789abcdef")
    assert len(reads) == 1 and reads[0][4] == [own]
    assert found and all(LAYOUT.fill_shard("en", lb.id) == own for lb in found)


def test_d6_a_reader_whose_own_shard_is_empty_reads_the_others(clock: FakeClock) -> None:
    counting = CountingRepo(InMemoryRepository(layout=LAYOUT))
    record = lobby("lone", ratings=(1000,))
    counting.commit([Put(record, new=True)])
    ctx = Context(counting, Settings(layout=LAYOUT), clock=clock)
    home = next(
        f"p_{i:016x}"
        for i in range(100)
        if LAYOUT.fill_shard("en", f"p_{i:016x}") != LAYOUT.fill_shard("en", "lone")
    )
    counting.reset()
    found = nearby(ctx, "en", 1000, home)
    assert [lb.id for lb in found] == ["lone"]
    assert counting.calls_to("open_lobbies") == 2  # its own shard, then the others at once
    # The sweep (rarely per lobby) reads every shard at once.
    counting.reset()
    assert [lb.id for lb in nearby(ctx, "en", 1000, "lone", everywhere=True)] == ["lone"]
    assert counting.calls_to("open_lobbies") == 1
