"""What every Repository must answer to its queries: the sweep's due tournaments, matchmaking's
open lobbies, due lobbies, rate-limit counters and the heartbeat; on every store, as
test_contract.py."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest

from api.storage.memory import InMemoryRepository
from api.storage.records import ClockRecord, LobbyRecord, PlayerRecord, TournamentRecord
from api.storage.repository import Conflict, Put, Repository
from core.lobby import Lobby, LobbySeat
from tests.conftest import MakeTable
from tests.storage.factories import (
    live_tournament,
    lobby,
    player,
)

# ---------------------------------------------------------------------------- the sweep


def _tournament(tid: str, due: int | None) -> TournamentRecord:
    return replace(live_tournament(tid), due=due)


def test_due_tournaments_only_returns_due_ones_in_deadline_order(repo: Repository) -> None:
    dues = {"t1": 300, "t2": 100, "t3": 200, "t4": 900, "t5": None}
    repo.commit([Put(_tournament(tid, due), new=True) for tid, due in dues.items()])
    assert repo.due_tournaments(300, 10) == ["t2", "t3", "t1"]
    assert repo.due_tournaments(250, 1) == ["t2"]
    assert repo.due_tournaments(99, 10) == []
    assert repo.due_tournaments(10_000, 0) == []


def test_finished_tournaments_drop_out_of_the_sweep(repo: Repository) -> None:
    repo.commit([Put(_tournament("t1", 100), new=True), Put(_tournament("t2", 150), new=True)])
    read = repo.get_tournament("t1")
    assert read is not None
    repo.commit([Put(replace(read, due=None))])
    assert repo.due_tournaments(1_000, 10) == ["t2"]
    stored = repo.get_tournament("t1")
    assert stored is not None and stored.due is None


def test_reschedule_moves_the_deadline_without_a_version_bump(repo: Repository) -> None:
    repo.commit([Put(_tournament("t1", 100), new=True)])
    repo.reschedule("t1", 1, 500)
    stored = repo.get_tournament("t1")
    assert stored is not None and (stored.due, stored.version) == (500, 1)
    assert repo.due_tournaments(400, 10) == []
    repo.reschedule("t1", 7, 50)  # stale: ignored
    assert repo.due_tournaments(400, 10) == []
    repo.reschedule("t1", 1, None)
    assert repo.due_tournaments(10**15, 10) == []
    repo.reschedule("nope", 1, 5)  # unknown: ignored


# ---------------------------------------------------------------------------- matchmaking


def test_open_lobbies_by_language_and_rating_window(repo: Repository) -> None:
    records = [
        lobby("near", ratings=(1000, 1040)),  # 1020
        lobby("edge", ratings=(1200,)),  # exactly 200 above
        lobby("below", ratings=(801,)),  # another band, inside the window
        lobby("far", ratings=(1201,)),  # outside
        lobby("far-below", ratings=(799,)),
        lobby("german", language="de", ratings=(1000,)),
        lobby("full", ratings=(1000,) * 8),
        lobby("started", ratings=(1000,) * 3, tournament_id="t1"),
        lobby("empty", ratings=()),
        LobbyRecord(Lobby("group", "en", 3, (LobbySeat("g", 1500),), "g1", 1150.5)),
    ]
    repo.commit([Put(r, new=True) for r in records])
    found = repo.open_lobbies("en", 1000, 200)
    assert sorted(lb.id for lb in found) == ["below", "edge", "group", "near"]
    assert [lb.id for lb in repo.open_lobbies("de", 1000, 200)] == ["german"]
    assert sorted(lb.id for lb in repo.open_lobbies("en", 1300, 200)) == ["edge", "far", "group"]
    assert repo.open_lobbies("fr", 1000, 200) == []


def test_a_lobby_leaves_matchmaking_once_it_starts(repo: Repository) -> None:
    repo.commit([Put(lobby("l1", ratings=(1000,) * 7), new=True)])
    read = repo.get_lobby("l1")
    assert read is not None and [lb.id for lb in repo.open_lobbies("en", 1000, 200)] == ["l1"]
    repo.commit([Put(replace(read, tournament_id="t1"))])
    assert repo.open_lobbies("en", 1000, 200) == []


def test_open_lobbies_carry_their_versions(repo: Repository) -> None:
    repo.commit([Put(lobby("l1"), new=True)])
    [found] = repo.open_lobbies("en", 1000, 200)
    assert found == replace(lobby("l1"), version=1)


def test_open_lobbies_read_the_fullest_first_then_the_oldest_a_few_per_band(
    repo: Repository,
) -> None:
    """D6's order, and a bounded read however many lobbies are open."""
    records = [
        lobby("one-old", ratings=(1000,), created_at=1),
        lobby("one-new", ratings=(1000,), created_at=9),
        lobby("three", ratings=(1000,) * 3, created_at=5),
        lobby("seven", ratings=(1000,) * 7, created_at=8),
        lobby("two", ratings=(1000, 1000), created_at=2),
        lobby("band-below", ratings=(990,), created_at=3),  # band 4
        lobby("gone", ratings=()),
    ]
    repo.commit([Put(r, new=True) for r in records])
    everything = [lb.id for lb in repo.open_lobbies("en", 1000, 200)]
    assert everything == ["band-below", "seven", "three", "two", "one-old", "one-new"]
    assert [lb.id for lb in repo.open_lobbies("en", 1000, 200, limit=2)] == [
        "band-below",
        "seven",
        "three",
    ]
    many = [lobby(f"m{i:03d}", ratings=(1100,), created_at=100 + i) for i in range(40)]
    repo.commit([Put(r, new=True) for r in many])
    assert len(repo.open_lobbies("en", 1000, 200)) == 1 + 10  # LOBBIES_PER_BAND from band 5


# ---------------------------------------------------------------------------- lobbies (D15, D16)


def test_due_lobbies_are_the_open_ones_due_earliest_first(repo: Repository) -> None:
    records = [
        replace(lobby("l1"), due=300),
        replace(lobby("l2"), due=100),
        replace(lobby("l3"), due=None),
        replace(lobby("l4", ratings=(1000,) * 8, tournament_id="t1"), due=50),  # started
        replace(lobby("l5"), due=900),
    ]
    repo.commit([Put(r, new=True) for r in records])
    assert repo.due_lobbies(300, 10) == ["l2", "l1"]
    assert repo.due_lobbies(300, 1) == ["l2"]
    assert repo.due_lobbies(99, 10) == []
    assert repo.due_tournaments(10**15, 10) == []  # apart from the tournaments
    repo.reschedule_lobby("l2", 1, 700)
    stored = repo.get_lobby("l2")
    assert stored is not None and (stored.due, stored.version) == (700, 1)
    assert repo.due_lobbies(300, 10) == ["l1"]
    repo.reschedule_lobby("l1", 9, 800)  # stale: ignored
    repo.reschedule_lobby("l1", 1, None)
    repo.reschedule_lobby("l4", 1, 10)  # started: ignored
    repo.reschedule_lobby("nope", 1, 10)  # unknown: ignored
    assert repo.due_lobbies(1_000, 10) == ["l2", "l5"]


def test_touch_lobby_stamps_a_seat_without_a_version_bump(repo: Repository) -> None:
    repo.commit([Put(lobby("l1", ratings=(1000, 1000), seen=100), new=True)])
    repo.touch_lobby("l1", "l1-p1", 2_000)
    repo.touch_lobby("l1", "l1-p1", 1_500)  # late and out of order: ignored
    stored = repo.get_lobby("l1")
    assert stored is not None and stored.version == 1
    assert [s.seen for s in stored.lobby.seats] == [100, 2_000]
    [listed] = repo.open_lobbies("en", 1000, 200)
    assert [s.seen for s in listed.lobby.seats] == [100, 2_000]
    # A commit of what was read keeps the stamp (in the seat); a later stamp adds to it.
    repo.commit([Put(replace(stored, due=5))])
    repo.touch_lobby("l1", "l1-p0", 3_000)
    again = repo.get_lobby("l1")
    assert again is not None and [s.seen for s in again.lobby.seats] == [3_000, 2_000]
    # Unknown and started lobbies take no stamps.
    repo.touch_lobby("nope", "x", 1)
    repo.commit([Put(lobby("l2", ratings=(1000,) * 8, tournament_id="t1"), new=True)])
    repo.touch_lobby("l2", "l2-p0", 9_000)
    started = repo.get_lobby("l2")
    assert started is not None and {s.seen for s in started.lobby.seats} == {0}


# ---------------------------------------------------------------------------- rate limits


def test_count_adds_per_window_and_returns_the_previous_window(repo: Repository) -> None:
    assert [repo.count("ip:1", 7, 60_000, 1) for _ in range(3)] == [(1, 0), (2, 0), (3, 0)]
    assert repo.count("ip:2", 7, 60_000, 1) == (1, 0)  # another subject
    assert repo.count("ip:1", 8, 60_000, 2) == (2, 3)  # the next window sees the previous one
    assert repo.count("ip:1", 8, 60_000, -1) == (1, 3)  # a refused request is taken back
    assert repo.count("ip:1", 10, 60_000, 1) == (1, 0)  # windows 8 and 9 are not the previous


@pytest.mark.parametrize("store", ["memory", "dynamodb-local"])
def test_concurrent_counts_lose_none(store: str, make_table: MakeTable) -> None:
    """Real threads. Not on moto, which applies concurrent updates of one item without a lock
    and loses some now and then (DynamoDB and DynamoDB Local do not)."""
    repo = InMemoryRepository() if store == "memory" else make_table(store)
    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(lambda _: repo.count("k", 1, 1_000, 1)[0], range(40)))
    assert sorted(seen) == list(range(1, 41))  # every count saw its own total


# ---------------------------------------------------------------------------- D9 contact, heartbeat


def test_touch_player_keeps_the_latest_stamp_without_a_version_bump(repo: Repository) -> None:
    repo.commit([Put(player("p1"), new=True)])
    repo.touch_player("p1", 5_000)
    repo.touch_player("p1", 4_000)  # late and out of order: ignored
    stored = repo.get_player("p1")
    assert stored is not None and (stored.last_contact, stored.version) == (5_000, 1)
    repo.touch_player("nobody", 5_000)  # no player, nothing created
    assert repo.get_player("nobody") is None


def test_a_player_write_keeps_the_stamp_it_read(repo: Repository) -> None:
    repo.commit([Put(player("p1"), new=True)])
    repo.touch_player("p1", 7_000)
    read = repo.get_player("p1")
    assert read is not None
    repo.commit([Put(replace(read, played=3))])
    stored = repo.get_player("p1")
    assert stored is not None and (stored.last_contact, stored.played) == (7_000, 3)


def test_the_heartbeat_is_replaced_only_if_unchanged(repo: Repository) -> None:
    assert repo.get_clock() is None
    first = ClockRecord(1_000)
    assert repo.put_clock(None, first)
    assert not repo.put_clock(None, ClockRecord(2_000))  # someone beat first
    later = ClockRecord(90_000, ((1_000, 90_000),))
    assert repo.put_clock(first, later)
    assert not repo.put_clock(first, ClockRecord(95_000))  # stale expectation
    assert repo.get_clock(consistent=True) == later


# ---------------------------------------------------------------------------- house bots (D18)


def _house(pid: str, rating: int, **fields: object) -> PlayerRecord:
    return player(pid, token_hash="", bot=True, house=True, rating=rating, **fields)


def test_d18_idle_house_bots_are_found_near_a_rating_closest_first(repo: Repository) -> None:
    """Only idle house bots are listed (not people, not bots that play through the API, not a
    house bot in a lobby or a tournament); each side of the rating is read nearest first,
    `limit` a side, across a rating band's edge."""
    bots = {
        "b1": 1000,  # exactly there
        "b2": 1010,
        "b3": 1099,
        "b4": 1101,  # past the window of 100
        "b5": 999,
        "b6": 901,  # the band below (800–999)
        "b7": 899,  # past the window
        "b8": 1205,
    }
    writes = [Put(_house(pid, r), new=True) for pid, r in bots.items()]
    writes += [
        Put(player("person", rating=1000), new=True),
        Put(player("http-bot", rating=1000, bot=True), new=True),
        Put(_house("seated", 1000, lobby_id="l1"), new=True),
        Put(_house("playing", 1000, tournament_id="t1"), new=True),
    ]
    repo.commit(writes)
    found = repo.idle_bots(1000, 100, 8)
    assert [b.id for b in found] == ["b1", "b5", "b2", "b3", "b6"]
    assert all(b.house and b.bot and b.version == 1 for b in found)
    assert [b.id for b in repo.idle_bots(1000, 100, 1)] == ["b1", "b5"]  # one a side
    assert [b.id for b in repo.idle_bots(1150, 100, 8)] == ["b4", "b3", "b8"]
    assert repo.idle_bots(500, 100, 8) == []


def test_d18_a_claimed_house_bot_leaves_the_index_and_a_freed_one_comes_back(
    repo: Repository,
) -> None:
    repo.commit([Put(_house("b1", 1000), new=True)])
    [bot] = repo.idle_bots(1000, 100, 8)
    repo.commit([Put(replace(bot, tournament_id="t1", last_tournament_id="t1"))])
    assert repo.idle_bots(1000, 100, 8) == []
    with pytest.raises(Conflict):  # a claim on the version the index showed loses the race
        repo.commit([Put(replace(bot, tournament_id="t2"))])
    claimed = repo.get_player("b1")
    assert claimed is not None
    repo.commit([Put(replace(claimed, tournament_id=None, rating=1030))])  # its place fixed
    [back] = repo.idle_bots(1000, 100, 8)
    assert (back.id, back.rating, back.last_tournament_id, back.version) == ("b1", 1030, "t1", 3)


def test_d18_lobbies_keep_bots_seats_and_when_their_last_seat_was_taken(
    repo: Repository,
) -> None:
    seats = (LobbySeat("p1", 1000, 5), LobbySeat("b1", 1010, 7, bot=True))
    repo.commit([Put(LobbyRecord(Lobby("l1", "kk", 1, seats), seated_at=7), new=True)])
    stored = repo.get_lobby("l1")
    assert stored is not None
    assert [s.bot for s in stored.lobby.seats] == [False, True]
    assert (stored.seated_at, stored.last_seated) == (7, 7)
    repo.commit([Put(lobby("l2", seen=40), new=True)])  # as stored before D18
    older = repo.get_lobby("l2")
    assert older is not None and older.seated_at is None and older.last_seated == 40
