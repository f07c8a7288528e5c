"""The in-memory fake's index lag: queries see the `fill` and `due` indexes as DynamoDB's
eventually consistent global secondary indexes would, reads by key stay current."""

from __future__ import annotations

from dataclasses import replace

from api.storage.memory import InMemoryRepository
from api.storage.repository import Delete, Put
from tests.storage.factories import live_tournament, lobby


class Clock:
    def __init__(self) -> None:
        self.ms = 1_000_000

    def __call__(self) -> int:
        return self.ms


def test_a_new_lobby_shows_in_the_index_only_after_the_lag() -> None:
    clock = Clock()
    repo = InMemoryRepository(index_lag_ms=300, clock=clock)
    repo.commit([Put(lobby("l1"), new=True)])
    assert repo.get_lobby("l1") is not None  # by key: at once
    assert repo.open_lobbies("en", 1000, 200) == []
    clock.ms += 299
    assert repo.open_lobbies("en", 1000, 200) == []
    clock.ms += 1
    assert [lb.id for lb in repo.open_lobbies("en", 1000, 200)] == ["l1"]


def test_the_index_shows_an_earlier_version_and_deleted_lobbies_for_a_while() -> None:
    clock = Clock()
    repo = InMemoryRepository(index_lag_ms=500, clock=clock)
    repo.commit([Put(lobby("l1"), new=True)])
    clock.ms += 1_000
    read = repo.get_lobby("l1")
    assert read is not None
    repo.commit([Put(replace(read, lobby=lobby("l1", ratings=(1000, 1100)).lobby))])
    [stale] = repo.open_lobbies("en", 1000, 200)
    assert (stale.version, len(stale.lobby.seats)) == (1, 1)
    clock.ms += 500
    [fresh] = repo.open_lobbies("en", 1000, 200)
    assert (fresh.version, len(fresh.lobby.seats)) == (2, 2)
    current = repo.get_lobby("l1")
    assert current is not None
    repo.commit([Delete(current)])
    assert [lb.id for lb in repo.open_lobbies("en", 1000, 200)] == ["l1"]
    clock.ms += 500
    assert repo.open_lobbies("en", 1000, 200) == []


def test_the_due_index_lags_too() -> None:
    clock = Clock()
    repo = InMemoryRepository(index_lag_ms=200, clock=clock)
    record = live_tournament("t1", now=clock.ms)
    repo.commit([Put(record, new=True), Put(replace(lobby("l1"), due=clock.ms), new=True)])
    far = 10**15
    assert repo.due_tournaments(far, 10) == [] and repo.due_lobbies(far, 10) == []
    clock.ms += 200
    assert repo.due_tournaments(far, 10) == ["t1"] and repo.due_lobbies(far, 10) == ["l1"]
    repo.reschedule("t1", 1, None)
    repo.reschedule_lobby("l1", 1, None)
    assert repo.due_tournaments(far, 10) == ["t1"] and repo.due_lobbies(far, 10) == ["l1"]
    clock.ms += 200
    assert repo.due_tournaments(far, 10) == [] and repo.due_lobbies(far, 10) == []


def test_without_lag_the_index_is_current() -> None:
    repo = InMemoryRepository()
    repo.commit([Put(lobby("l1"), new=True)])
    assert [lb.id for lb in repo.open_lobbies("en", 1000, 200)] == ["l1"]
