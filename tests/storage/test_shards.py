"""Sharded index partitions (api/storage/layout.py): the sweep's deadline shards and the fill
shards of a rating band, read alike by the in-memory fake, moto and DynamoDB Local."""

from __future__ import annotations

from dataclasses import replace

import pytest

from api.config import Settings
from api.storage.layout import Layout, parse_fill_shards
from api.storage.memory import InMemoryRepository
from api.storage.repository import Put, Repository, due_page_limit
from tests.conftest import STORES, MakeTable
from tests.storage.factories import live_tournament, lobby

SHARDED = Layout(
    due_shards=16, lobby_due_shards=8, fill_shards=4, fill_shards_by_language=(("de", 2),)
)


@pytest.fixture(params=["memory", *STORES])
def sharded(request: pytest.FixtureRequest, make_table: MakeTable) -> Repository:
    if request.param == "memory":
        return InMemoryRepository(layout=SHARDED)
    return make_table(request.param, Settings(layout=SHARDED))


# ---------------------------------------------------------------------------- the layout


def test_the_layout_from_the_environment() -> None:
    layout = Layout.from_env(
        {"WT_DUE_SHARDS": "64", "WT_LOBBY_DUE_SHARDS": "8", "WT_FILL_SHARDS": "en:4,es:2,1"}
    )
    assert (layout.due_shards, layout.lobby_due_shards) == (64, 8)
    assert (layout.fill_count("en"), layout.fill_count("es"), layout.fill_count("kk")) == (4, 2, 1)
    assert layout.describe() == "WT_DUE_SHARDS=64 WT_LOBBY_DUE_SHARDS=8 WT_FILL_SHARDS=en:4,es:2,1"
    assert Layout.from_env({}) == Layout()
    assert parse_fill_shards("8") == (8, ())
    for bad in ("0", "en:", ":4", "en:x", "2000"):
        with pytest.raises(ValueError):
            parse_fill_shards(bad)
    with pytest.raises(ValueError):
        Layout.from_env({"WT_DUE_SHARDS": "zero"})


def test_shard_zero_keeps_the_unsharded_key_so_that_a_count_may_be_raised() -> None:
    """Items listed before a raise stay readable: shard 0 is the key of an unsharded band."""
    assert Layout().fill_keys("en", 5) == ["O#en#5"]
    assert SHARDED.fill_keys("en", 5) == ["O#en#5", "O#en#5#1", "O#en#5#2", "O#en#5#3"]
    assert SHARDED.fill_keys("en", 5, [2]) == ["O#en#5#2"]
    assert SHARDED.due_keys()[:2] == ["D#0", "D#1"] and len(SHARDED.due_keys()) == 16
    assert set(Layout(due_shards=4).due_keys()) <= set(SHARDED.due_keys())


def test_the_sweep_reads_a_bounded_page_of_each_shard() -> None:
    assert due_page_limit(500, 8) == 125
    assert due_page_limit(500, 64) == 16
    assert due_page_limit(500, 256) == 10  # at least 10 from each
    assert due_page_limit(5, 2) == 5  # never more than asked


# ---------------------------------------------------------------------------- the sweep (D10)


def _tournaments(repo: Repository, dues: list[int | None]) -> None:
    records = [replace(live_tournament(f"t{i:03d}"), due=d) for i, d in enumerate(dues)]
    repo.commit([Put(r, new=True) for r in records[:50]])
    if records[50:]:
        repo.commit([Put(r, new=True) for r in records[50:]])


def test_d10_due_tournaments_come_from_every_shard_earliest_first(sharded: Repository) -> None:
    dues = [1_000 + 37 * ((i * 7) % 40) for i in range(40)] + [None, 10**14]
    _tournaments(sharded, dues)
    shards = {SHARDED.due_key(f"t{i:03d}") for i in range(40)}
    assert len(shards) > 8  # the tournaments are spread over the shards
    found = sharded.due_tournaments(10**13, 100)
    expected = sorted((d, f"t{i:03d}") for i, d in enumerate(dues[:40]))
    assert found == [tid for _, tid in expected]
    assert sharded.due_tournaments(1_000 + 37 * 5, 100) == [tid for _, tid in expected[:6]]
    assert sharded.due_tournaments(10**13, 3) == [tid for _, tid in expected[:3]]


def test_d10_a_backlog_in_many_shards_drains_a_bounded_read_at_a_time(
    sharded: Repository,
) -> None:
    _tournaments(sharded, [1_000 + i for i in range(90)])
    seen: set[str] = set()
    for _ in range(20):
        batch = sharded.due_tournaments(10**13, 12)
        if not batch:
            break
        assert len(batch) <= 12 and not seen & set(batch)
        for tid in batch:  # the sweep advances them: out of the index
            record = sharded.get_tournament(tid)
            assert record is not None
            sharded.reschedule(tid, record.version, None)
        seen |= set(batch)
    assert len(seen) == 90


def test_d15_due_lobbies_come_from_every_shard(sharded: Repository) -> None:
    records = [replace(lobby(f"l{i:02d}"), due=100 + i) for i in range(24)]
    sharded.commit([Put(r, new=True) for r in records])
    assert len({SHARDED.lobby_due_key(r.id) for r in records}) == 8
    assert sharded.due_lobbies(10**13, 50) == [r.id for r in records]


# ---------------------------------------------------------------------------- the fill (D6)


def test_d6_open_lobbies_read_the_shards_asked_or_all(sharded: Repository) -> None:
    records = [lobby(f"l{i:02d}", ratings=(1000 + i,), created_at=i) for i in range(24)]
    records.append(lobby("german", language="de", ratings=(1000,)))
    sharded.commit([Put(r, new=True) for r in records])
    by_shard: dict[int, set[str]] = {}
    for r in records[:24]:
        by_shard.setdefault(SHARDED.fill_shard("en", r.id), set()).add(r.id)
    assert len(by_shard) == 4
    everything = {lb.id for lb in sharded.open_lobbies("en", 1000, 200)}
    assert everything == {r.id for r in records[:24]}
    for shard, ids in by_shard.items():
        assert {lb.id for lb in sharded.open_lobbies("en", 1000, 200, shards=[shard])} == ids
    assert [lb.id for lb in sharded.open_lobbies("de", 1000, 200)] == ["german"]


def test_d6_each_shard_is_read_fullest_first_a_few_at_a_time(sharded: Repository) -> None:
    records = [lobby(f"m{i:02d}", ratings=(1000,) * (1 + i % 7), created_at=i) for i in range(40)]
    sharded.commit([Put(r, new=True) for r in records])
    for shard in range(4):
        listed = sharded.open_lobbies("en", 1000, 200, limit=3, shards=[shard])
        assert len(listed) == 3
        mine = [r for r in records if SHARDED.fill_shard("en", r.id) == shard]
        best = sorted(mine, key=lambda r: (r.lobby.open_seats, r.lobby.created_at))[:3]
        assert [lb.id for lb in listed] == [r.id for r in best]
