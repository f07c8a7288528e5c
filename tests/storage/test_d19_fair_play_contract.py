"""D19 in every Repository (the in-memory fake, moto, DynamoDB Local): the fair-play record kept
in the statistics item, held players out of the `active` index, the players operators review in
a sparse partition (never a scan), a decision written only over the version read, and the
rating changes fair play applied kept with the tournament."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import wordlists
from api.storage.dynamodb.history_items import stats_item, stats_record
from api.storage.metering.billing import item_size, write_units
from api.storage.records import StatsRecord
from api.storage.repository import Conflict, Put, Repository
from core.fairplay import record as fr
from core.fairplay.farming import FarmMemory
from core.fairplay.record import FairPlay
from core.fairplay.signals import RowFacts, tally
from core.stats import RATING_POINTS, Stats, add
from tests.storage.factories import NOW, finished_tournament, line, live_tournament, stats


def _record(status: str = fr.OK, at: int | None = None) -> FairPlay:
    rows = [RowFacts(200, False, 3.0, 3.0, 100, True, 2.5) for _ in range(6)]
    held = status != fr.OK
    return FairPlay(
        tournaments=1,
        all=tally(rows),
        current=tally(rows),
        farm=FarmMemory((7, 9), 1, 12, "t_x"),
        status=status,
        status_at=at if held else None,
        reasons=("choices",) if held else (),
    )


def test_d19_the_record_is_kept_with_the_statistics(repo: Repository) -> None:
    records = [
        StatsRecord("p1", stats(), fairplay=_record()),
        StatsRecord("p2", stats(), fairplay=None),  # none yet: a player of before, or a bot
        StatsRecord("p3", stats(), fairplay=_record(fr.CONFIRMED, NOW)),
    ]
    repo.commit([Put(r, new=True) for r in records])
    assert repo.get_stats(["p1", "p2", "p3"]) == [replace(r, version=1) for r in records]


def test_d19_held_players_leave_the_active_index_and_come_back_when_cleared(
    repo: Repository,
) -> None:
    repo.commit(
        [Put(StatsRecord(f"p{i}", stats(), fairplay=_record()), new=True) for i in range(4)]
    )
    assert {e.player_id for e in repo.active_players(0)} == {"p0", "p1", "p2", "p3"}
    assert list(repo.fair_play_reviews()) == []  # nobody to review: nothing read
    [p1, p2] = repo.get_stats(["p1", "p2"])
    flagged = fr.judge(p1.fairplay or FairPlay(), NOW)
    assert flagged.status == fr.FLAGGED
    repo.commit([Put(replace(p1, fairplay=flagged))])
    repo.commit([Put(replace(p2, fairplay=_record(fr.CONFIRMED, NOW - 5)))])
    assert {e.player_id for e in repo.active_players(0)} == {"p0", "p3"}
    reviews = list(repo.fair_play_reviews())
    assert [r.player_id for r in reviews] == ["p2", "p1"]  # by when the status was set
    assert reviews[1].fairplay == flagged and reviews[1].stats == p1.stats
    [p1] = repo.get_stats(["p1"])
    cleared = fr.clear(flagged, "ops", NOW + 1)
    repo.commit([Put(replace(p1, fairplay=cleared))])
    assert {e.player_id for e in repo.active_players(0)} == {"p0", "p1", "p3"}
    assert [r.player_id for r in repo.fair_play_reviews()] == ["p2", "p1"]  # cleared: listed
    with pytest.raises(Conflict):  # a decision over a record that changed meanwhile
        repo.commit([Put(replace(p1, fairplay=fr.confirm(flagged, "ops", NOW + 2)))])


def test_d19_applied_rating_changes_are_kept_with_the_tournament(repo: Repository) -> None:
    done = replace(finished_tournament("t1"), rating_changes={"p0": 0})
    repo.commit([Put(done, new=True), Put(live_tournament("t2"), new=True)])
    assert repo.get_tournament("t1") == replace(done, version=1)
    live = repo.get_tournament("t2")
    assert live is not None and live.rating_changes == {}
    repo.commit([Put(replace(live, rating_changes={"p3": -2}))])  # an update keeps them
    again = repo.get_tournament("t2")
    assert again is not None and again.rating_changes == {"p3": -2}
    repo.commit([Put(replace(again, due=None))])
    again = repo.get_tournament("t2")
    assert again is not None and again.rating_changes == {"p3": -2}


def _busy() -> Stats:
    """Every language, a full rating chart, a 20-character name (the largest statistics)."""
    s: Stats | None = None
    languages = list(wordlists.LANGUAGES)
    for i in range(RATING_POINTS + 200):
        r = line("p_0123456789abcdef", f"t_{i:016x}", NOW + i, 1 + i % 8, languages[i % 13])
        s = add(
            s,
            replace(r.result, rating_before=-1500 + i, rating_after=-1499 + i),
            "N" * 20,
            False,
            NOW + i,
        )
    assert s is not None
    return s


def _career(n: int, rng: random.Random, quitters: int = 16, held: bool = True) -> FairPlay:
    record = FairPlay()
    for _ in range(n):
        rows = [
            RowFacts(
                rng.choice((10, 100, 1500)),
                rng.random() < 0.2,
                rng.random() * 9,
                rng.random() * 2,
                rng.randrange(101),
                rng.random() < 0.5,
                rng.choice((0.05, 3.0, 29.9)),
            )
            for _ in range(8)
        ]
        record = fr.add(record, tally(rows))
    keys = tuple(rng.getrandbits(32) for _ in range(quitters))
    farm = FarmMemory(keys, 0xFFFF, 9_999, "t_0123456789abcdef")
    if not held:
        return replace(record, farm=farm)
    return replace(
        record,
        farm=farm,
        status=fr.CONFIRMED,
        status_at=NOW,
        reasons=("choices", "farm"),
        by="ops-ann",
    )


def test_d19_the_record_adds_at_most_one_write_unit() -> None:
    """What fair play adds to the statistics item, which R16's transaction writes with every
    place: the largest record (2,000 tournaments, 16 quitters remembered) on the largest
    statistics passes 1 KB, but stays within 2 units; a player with a full chart in one
    language and an ordinary record (60 tournaments, 4 quitters remembered) stays within one."""
    rng = random.Random(5)
    largest = StatsRecord("p_0123456789abcdef", _busy(), fairplay=_career(2000, rng))
    size = item_size(stats_item(largest, 10**6, "w" * 12).serialize())
    assert write_units(size) == 2, size
    assert stats_record(stats_item(largest, 7, None)) == replace(largest, version=7)
    one = stats(nickname="SwiftOtter42", results=RATING_POINTS + 5)
    ordinary = StatsRecord("p_0123456789abcdef", one, fairplay=_career(60, rng, 4, held=False))
    size = item_size(stats_item(ordinary, 10**6, "w" * 12).serialize())
    assert write_units(size) == 1, size
