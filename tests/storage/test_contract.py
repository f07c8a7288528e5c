"""What every Repository must do with single records and transactions: run against the in-memory
fake, DynamoDB Local and moto alike. Its queries (sweep, matchmaking, lobbies, limits) are in
test_contract_queries.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from api.storage.records import LobbyRecord
from api.storage.repository import Conflict, Delete, Put, Repository
from core.lobby import Lobby, LobbySeat
from tests.storage.factories import (
    finished_tournament,
    group,
    live_tournament,
    lobby,
    player,
)

# ---------------------------------------------------------------------------- round trips


def test_missing_records_read_as_none(repo: Repository) -> None:
    assert repo.get_player("nobody") is None
    assert repo.get_lobby("nowhere") is None
    assert repo.get_tournament("never") is None
    assert repo.get_group("none") is None


def test_player_round_trip(repo: Repository) -> None:
    full = player(
        "p1",
        nickname="Zoë ʻOʻ",
        played=12,
        lobby_id="l1",
        queued_at=1_700_000_000_123,
        tournament_id="t1",
        last_tournament_id="t0",
        group_id="g1",
        bot=True,
    )
    bare = player("p2")
    repo.commit([Put(full, new=True), Put(bare, new=True)])
    assert repo.get_player("p1") == replace(full, version=1)
    assert repo.get_player("p2") == replace(bare, version=1)


def test_get_players_in_the_order_asked_missing_skipped(repo: Repository) -> None:
    repo.commit([Put(player(pid), new=True) for pid in ("a", "b", "c")])
    found = repo.get_players(["c", "x", "a", "b"])
    assert [p.id for p in found] == ["c", "a", "b"]
    assert repo.get_players([]) == []


def test_lobby_round_trip(repo: Repository) -> None:
    plain = lobby("l1", ratings=(1000, 1100, 1250))
    grouped = LobbyRecord(
        Lobby("l2", "de", 7, (LobbySeat("a", 1000), LobbySeat("b", 1101)), "g1", 1050.5)
    )
    started = lobby("l3", ratings=(1000,) * 8, tournament_id="t1")
    empty = lobby("l4", ratings=())
    due = replace(lobby("l5", ratings=(990, 1010), seen=77), due=4_000)
    moved = LobbyRecord(Lobby("l6", "en", 9), moved_to="l1")  # D15: merged into l1
    records = (plain, grouped, started, empty, due, moved)
    repo.commit([Put(r, new=True) for r in records])
    for record in records:
        assert repo.get_lobby(record.id) == replace(record, version=1)


def test_group_round_trip(repo: Repository) -> None:
    record = group("g1", ("p3", "p1", "p2"))
    repo.commit([Put(record, new=True)])
    assert repo.get_group("g1") == replace(record, version=1)


def test_tournament_round_trip_with_multi_tile_words(repo: Repository) -> None:
    record = live_tournament("t1")
    secrets = [d.secret for d in record.tournament.rounds[0].duels]
    assert ("oʻ", "r", "d", "a", "k") in secrets
    repo.commit([Put(record, new=True)])
    stored = repo.get_tournament("t1")
    assert stored == replace(record, version=1, contacts={})
    assert stored is not None and stored.due == record.tournament.next_deadline()


def test_finished_tournament_round_trip(repo: Repository) -> None:
    record = finished_tournament("t9")
    repo.commit([Put(record, new=True)])
    assert repo.get_tournament("t9") == replace(record, version=1)


# ---------------------------------------------------------------------------- conditions


def test_new_put_fails_when_the_record_exists(repo: Repository) -> None:
    repo.commit([Put(player("p1"), new=True)])
    with pytest.raises(Conflict):
        repo.commit([Put(player("p1", nickname="other"), new=True)])
    stored = repo.get_player("p1")
    assert stored is not None and stored.nickname == "Nick p1"


def test_put_of_an_existing_record_needs_it_to_exist(repo: Repository) -> None:
    with pytest.raises(Conflict):
        repo.commit([Put(player("p1"))])  # version 0, not new: nothing to overwrite
    with pytest.raises(Conflict):
        repo.commit([Put(live_tournament("t1"))])
    assert repo.get_player("p1") is None
    assert repo.get_tournament("t1") is None


def test_each_write_bumps_the_version(repo: Repository) -> None:
    repo.commit([Put(player("p1"), new=True)])
    for expected in (2, 3):
        current = repo.get_player("p1")
        assert current is not None
        repo.commit([Put(replace(current, played=current.played + 1))])
        stored = repo.get_player("p1")
        assert stored is not None and (stored.version, stored.played) == (expected, expected - 1)


def test_stale_version_conflicts(repo: Repository) -> None:
    repo.commit([Put(player("p1"), new=True)])
    first = repo.get_player("p1")
    assert first is not None
    repo.commit([Put(replace(first, rating=1010))])
    with pytest.raises(Conflict):
        repo.commit([Put(replace(first, rating=990))])
    stored = repo.get_player("p1")
    assert stored is not None and (stored.rating, stored.version) == (1010, 2)


def test_stale_tournament_conflicts(repo: Repository) -> None:
    repo.commit([Put(live_tournament("t1"), new=True)])
    read = repo.get_tournament("t1")
    assert read is not None
    repo.commit([Put(replace(read, due=5))])
    with pytest.raises(Conflict):
        repo.commit([Put(replace(read, due=7))])
    stored = repo.get_tournament("t1")
    assert stored is not None and (stored.version, stored.due) == (2, 5)


def test_a_transaction_with_one_stale_record_writes_nothing(repo: Repository) -> None:
    repo.commit([Put(player("p1"), new=True), Put(lobby("l1"), new=True)])
    p1, l1 = repo.get_player("p1"), repo.get_lobby("l1")
    assert p1 is not None and l1 is not None
    repo.commit([Put(replace(p1, played=5))])  # p1 is now stale
    with pytest.raises(Conflict):
        repo.commit(
            [
                Put(replace(l1, tournament_id="t1")),
                Put(live_tournament("t1"), new=True),
                Put(group("g1"), new=True),
                Put(replace(p1, played=9)),
            ]
        )
    assert repo.get_lobby("l1") == l1
    assert repo.get_tournament("t1") is None
    assert repo.get_group("g1") is None
    stored = repo.get_player("p1")
    assert stored is not None and stored.played == 5


def test_a_transaction_writes_every_record(repo: Repository) -> None:
    repo.commit([Put(player("p1"), new=True), Put(lobby("l1"), new=True)])
    p1, l1 = repo.get_player("p1"), repo.get_lobby("l1")
    assert p1 is not None and l1 is not None
    repo.commit(
        [
            Put(replace(p1, tournament_id="t1")),
            Put(replace(l1, tournament_id="t1")),
            Put(live_tournament("t1"), new=True),
        ]
    )
    p1, l1 = repo.get_player("p1"), repo.get_lobby("l1")
    assert p1 is not None and l1 is not None and (p1.version, l1.version) == (2, 2)
    assert repo.get_tournament("t1") is not None


def test_one_item_twice_in_a_commit_is_refused(repo: Repository) -> None:
    with pytest.raises(ValueError):
        repo.commit([Put(player("p1"), new=True), Put(player("p1", rating=5), new=True)])


def test_delete_is_conditional_on_the_version(repo: Repository) -> None:
    repo.commit([Put(group("g1"), new=True), Put(live_tournament("t1"), new=True)])
    g1 = repo.get_group("g1")
    assert g1 is not None
    with pytest.raises(Conflict):
        repo.commit([Delete(replace(g1, version=7))])
    repo.commit([Delete(g1)])
    assert repo.get_group("g1") is None
    with pytest.raises(Conflict):
        repo.commit([Delete(g1)])  # already gone
    t1 = repo.get_tournament("t1")
    assert t1 is not None
    repo.touch("t1", "p0", 5)
    repo.commit([Delete(t1)])
    assert repo.get_tournament("t1") is None
    assert repo.due_tournaments(10**15, 10) == []


# ---------------------------------------------------------------------------- contacts (D9)


def test_touch_keeps_the_latest_stamp(repo: Repository) -> None:
    repo.commit([Put(live_tournament("t1"), new=True)])
    repo.touch("t1", "p1", 2_000)
    repo.touch("t1", "p1", 1_500)  # late and out of order: ignored
    repo.touch("t1", "p2", 1_800)
    stored = repo.get_tournament("t1")
    assert stored is not None
    assert stored.contacts == {"p1": 2_000, "p2": 1_800}
    assert stored.version == 1  # no version bump


def test_touch_survives_later_tournament_commits(repo: Repository) -> None:
    repo.commit([Put(live_tournament("t1"), new=True)])
    read = repo.get_tournament("t1")
    assert read is not None
    repo.touch("t1", "p1", 3_000)  # after the read, before the commit
    repo.commit([Put(replace(read, due=42))])
    again = repo.get_tournament("t1")
    assert again is not None and again.contacts == {"p1": 3_000}
    repo.touch("t1", "p2", 3_100)
    repo.commit([Put(replace(again, due=43)), Put(player("p9"), new=True)])  # a transaction
    stored = repo.get_tournament("t1")
    assert stored is not None
    assert stored.contacts == {"p1": 3_000, "p2": 3_100}
    assert (stored.version, stored.due) == (3, 43)


def test_touch_of_an_unknown_tournament_does_nothing(repo: Repository) -> None:
    repo.touch("t1", "p1", 3_000)
    assert repo.get_tournament("t1") is None
    repo.commit([Put(live_tournament("t1"), new=True)])
    stored = repo.get_tournament("t1")
    assert stored is not None and stored.contacts == {}
