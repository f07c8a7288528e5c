"""The per-key meter: units per partition key of the table and of each index (KEYS_ONLY and
ALL projections), the same from the in-memory fake as from the DynamoDB adapter."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from api.config import Settings
from api.storage.dynamodb.history import ACTIVE_READ_UNITS_PER_S, pace_wait
from api.storage.keys import ACTIVE_INDEX, DUE_INDEX, HISTORY_INDEX, OPEN_INDEX
from api.storage.layout import Layout
from api.storage.memory import InMemoryRepository
from api.storage.metering.billing import item_size, write_units
from api.storage.metering.meter import Meter
from api.storage.metering.traffic import (
    PARTITION_READ_UNITS,
    PARTITION_WRITE_UNITS,
    TABLE,
    KeyRate,
    KeyTally,
    Touch,
    entries,
    query_touch,
    read_touch,
    write_touches,
)
from api.storage.records import StatsRecord
from api.storage.repository import Put, Repository
from core.leaderboard import part_of
from tests.conftest import STORES, MakeTable
from tests.storage.factories import line, live_tournament, lobby, player, stats

KB = 1024


def tournament_item(pk: str = "T#t1", shard: str = "D#3", due: int = 500) -> dict[str, Any]:
    return {
        "pk": {"S": pk},
        "v": {"N": "4"},
        "s": {"B": b"x" * 3000},
        "dk": {"S": shard},
        "dd": {"N": str(due)},
    }


def lobby_item(pk: str = "L#l1", fill: str = "O#en#5", sort: str = "7#1") -> dict[str, Any]:
    return {
        "pk": {"S": pk},
        "v": {"N": "1"},
        "se": {"L": [{"S": "x" * 1500}]},
        "ok": {"S": fill},
        "of": {"S": sort},
    }


# ---------------------------------------------------------------------------- entries


def test_an_item_is_in_the_indexes_whose_keys_it_carries() -> None:
    found = entries(tournament_item())
    assert set(found) == {TABLE, DUE_INDEX}
    assert (found[TABLE].key, found[DUE_INDEX].key, found[DUE_INDEX].sort) == ("T#t1", "D#3", "500")
    assert entries({"pk": {"S": "P#p1"}, "rt": {"N": "1000"}}).keys() == {TABLE}
    assert entries(None) == {}


def test_keys_only_entries_are_the_keys_and_all_entries_the_whole_item() -> None:
    item = tournament_item()
    keys = {name: item[name] for name in ("pk", "dk", "dd")}
    assert entries(item)[DUE_INDEX].size == item_size(keys) < 40  # not the 3 KB state
    full = lobby_item()
    assert entries(full)[OPEN_INDEX].size == item_size(full) > 1500


# ---------------------------------------------------------------------------- writes


def units(touches: list[Touch]) -> dict[tuple[str, str], float]:
    found: dict[tuple[str, str], float] = {}
    for t in touches:
        found[t.index, t.key] = found.get((t.index, t.key), 0.0) + t.write
    return found


def test_a_new_item_writes_its_index_entries_once() -> None:
    written = units(write_touches({}, entries(tournament_item())))
    assert written == {(TABLE, "T#t1"): 3.0, (DUE_INDEX, "D#3"): 1.0}


def test_a_changed_index_key_deletes_the_old_entry_and_puts_the_new() -> None:
    before = entries(tournament_item(shard="D#3", due=500))
    moved = units(write_touches(before, entries(tournament_item(shard="D#3", due=900))))
    assert moved[DUE_INDEX, "D#3"] == 2.0  # same partition: a delete and a put
    resharded = units(write_touches(before, entries(tournament_item(shard="D#5", due=500))))
    assert (resharded[DUE_INDEX, "D#3"], resharded[DUE_INDEX, "D#5"]) == (1.0, 1.0)


def test_an_unchanged_keys_only_entry_costs_nothing_but_an_all_entry_is_rewritten() -> None:
    item = tournament_item()
    restamped = {**item, "c": {"M": {"p1": {"N": "123"}}}}  # not projected into `due`
    assert units(write_touches(entries(item), entries(restamped))) == {(TABLE, "T#t1"): 3.0}
    seated = lobby_item()
    touched = {**seated, "c": {"M": {"p1": {"N": "123"}}}}  # projected into `fill` (ALL)
    assert units(write_touches(entries(seated), entries(touched)))[OPEN_INDEX, "O#en#5"] == 2.0


def test_leaving_an_index_deletes_its_entry() -> None:
    item = lobby_item()
    started = {k: v for k, v in item.items() if k not in ("ok", "of")}
    written = units(write_touches(entries(item), entries(started)))
    assert written == {(TABLE, "L#l1"): 2.0, (OPEN_INDEX, "O#en#5"): 2.0}  # a 1.5 KB entry


def test_a_failed_condition_bills_the_table_only_and_transactions_double_it() -> None:
    before, after = entries(tournament_item(due=1)), entries(tournament_item(due=2))
    assert units(write_touches(before, after, applied=False)) == {(TABLE, "T#t1"): 3.0}
    doubled = units(write_touches(before, after, transactional=True))
    assert doubled == {(TABLE, "T#t1"): 6.0, (DUE_INDEX, "D#3"): 2.0}  # index writes: standard


def test_the_table_write_is_billed_on_the_larger_image() -> None:
    big = entries({"pk": {"S": "P#p1"}, "x": {"S": "y" * (5 * KB)}})
    small = entries({"pk": {"S": "P#p1"}})
    assert units(write_touches(big, small)) == {(TABLE, "P#p1"): 6.0}


def test_reads_and_queries_per_key() -> None:
    assert read_touch("P#p1", 5 * KB) == Touch(TABLE, "P#p1", read=2.0)
    assert read_touch("P#p1", 0, consistent=False).read == 0.5  # a miss costs the minimum
    assert query_touch(OPEN_INDEX, "O#en#5", [3 * KB, 3 * KB]).read == 1.0  # 6 KB, eventual


# ---------------------------------------------------------------------------- the tally


def test_the_tally_gives_rates_peaks_and_utilisation_per_key() -> None:
    now = [0]
    tally = KeyTally(lambda: now[0], bucket_ms=1_000)
    for second in range(10):
        now[0] = second * 1_000
        tally.add([Touch(DUE_INDEX, "D#1", write=100.0 if second < 5 else 300.0)])
        tally.add([Touch(TABLE, "T#t1", read=30.0)])
    [due, table] = tally.rates(0, 10_000)
    assert (due.key, due.write_units_per_s, due.utilisation) == ("D#1", 200.0, 0.2)
    assert (table.read_units_per_s, table.utilisation) == (30.0, 0.01)
    assert tally.peaks(0, 10_000)[0].write_units_per_s == 300.0
    assert tally.rates(5_000, 10_000)[0].write_units_per_s == 300.0
    hot = KeyRate(DUE_INDEX, "D#1", 0.0, PARTITION_WRITE_UNITS / 2)
    assert hot.as_dict()["utilisation"] == 0.5


def test_the_meter_keeps_a_calls_units_per_key_and_in_sum() -> None:
    meter = Meter(keys=KeyTally(lambda: 0))
    meter.touch("commit", [Touch(TABLE, "T#t1", write=3.0), Touch(DUE_INDEX, "D#1", write=1.0)])
    assert meter.total().write_units == 4.0
    assert meter.keys is not None and len(meter.keys.keys()) == 2


# ---------------------------------------------------------------------------- one path, two stores


LAYOUT = Layout(due_shards=4, lobby_due_shards=2, fill_shards=2)


def story(repo: Repository) -> None:
    """Calls whose units the two stores must meter alike, key by key."""
    repo.commit([Put(player("p1"), new=True), Put(live_tournament("t1"), new=True)])
    record = repo.get_tournament("t1")
    assert record is not None
    repo.touch("t1", "p1", 2_000_000)
    repo.commit([Put(replace(record, due=(record.due or 0) + 30_000))])
    record = repo.get_tournament("t1")
    assert record is not None
    repo.reschedule("t1", record.version, (record.due or 0) + 1_000)
    repo.commit([Put(replace(lobby("l1", ratings=(1000, 1010)), due=5_000), new=True)])
    seated = repo.get_lobby("l1")
    assert seated is not None
    repo.touch_lobby("l1", "l1-p0", 6_000)
    repo.reschedule_lobby("l1", seated.version, 9_000)
    repo.get_players(["p1", "nobody"])
    repo.open_lobbies("en", 1000, 400)
    repo.open_lobbies("en", 1000, 400, shards=[1])
    repo.due_tournaments(10**15, 50)
    repo.due_lobbies(10**15, 50)
    seated = repo.get_lobby("l1")
    assert seated is not None
    repo.commit([Put(replace(seated, tournament_id="t9", due=None))])  # started: leaves both
    # A history line (`history`, ALL) and statistics (`active`, INCLUDE).
    first = line("p1", "t1", 1_760_000_000_000)
    repo.commit([Put(first, new=True), Put(StatsRecord("p1", stats(results=1)), new=True)])
    [before] = repo.get_stats(["p1"])
    later = stats(results=2, at=1_760_000_900_000)  # a later finish: moves its active entry
    repo.commit(
        [Put(line("p1", "t2", 1_760_000_900_000), new=True), Put(replace(before, stats=later))]
    )
    repo.history("p1", 10)
    list(repo.active_players(0, part=part_of("p1")))
    # D18: an idle house bot enters `fill`, is found, claimed (leaves it), freed (comes back).
    bot = player("b1", token_hash="", bot=True, house=True, rating=1010)
    repo.commit([Put(bot, new=True)])
    [idle] = repo.idle_bots(1000, 100, 8)
    repo.commit([Put(replace(idle, tournament_id="t1"))])
    claimed = repo.get_player("b1")
    assert claimed is not None
    repo.commit([Put(replace(claimed, tournament_id=None, rating=1030))])


def per_key(tally: KeyTally) -> dict[tuple[str, str], tuple[float, float]]:
    return tally.totals(0, tally.bucket_ms)


@pytest.mark.parametrize("store", STORES)
def test_the_fake_meters_every_key_as_the_dynamodb_adapter_does(
    store: str, make_table: MakeTable
) -> None:
    fake_tally, table_tally = KeyTally(lambda: 0), KeyTally(lambda: 0)
    story(InMemoryRepository(layout=LAYOUT, meter=Meter(keys=fake_tally)))
    story(make_table(store, Settings(layout=LAYOUT), meter=Meter(keys=table_tally)))
    fake, dynamo = per_key(fake_tally), per_key(table_tally)
    assert fake == dynamo
    indexes = {index for index, _ in fake}
    assert indexes == {TABLE, DUE_INDEX, OPEN_INDEX, HISTORY_INDEX, ACTIVE_INDEX}
    assert fake[TABLE, "T#t1"][1] > write_units(3 * KB)  # every write of the whole item


def test_without_a_meter_the_fake_meters_nothing() -> None:
    repo = InMemoryRepository()
    story(repo)
    assert repo.meter is None


def test_the_leaderboards_refresh_reads_an_active_partition_at_a_pace() -> None:
    """A part of a million active players is several 1 MB pages (128 units each): read back
    to back they would take the partition to its 3,000 units a second."""
    assert pace_wait(0.0, 0.0, 1_000) == 0.0
    assert pace_wait(128.0, 0.03, 1_000) == pytest.approx(0.098)  # wait until 128 ms in
    assert pace_wait(128.0, 0.5, 1_000) == 0.0  # slow enough already
    assert ACTIVE_READ_UNITS_PER_S <= PARTITION_READ_UNITS / 2
