"""D18 in the service, over HTTP through the Flask app with a driven clock: when house bots
fill a lobby. A person has waited WT_BOT_FILL_SECONDS since its last seat was taken: whoever
notices first (the queue's polls, the sweep, a later join) fills it, as of when it was due
(D10); every seat taken moves the fill later; none when house bots are off or for a lobby of
bots only; a group's lobby the same way (R22).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask

from api.storage.repository import Repository
from tests.api.clock import FakeClock
from tests.api.game import Game, Player
from tests.api.house_bots import FILL_MS, SWEEP_MS, bot_settings, poll, service_of, started
from tests.api.test_lobbies_and_groups import join


def test_d18_a_person_alone_is_filled_exactly_when_the_queue_said(bgame: Game) -> None:
    person = bgame.new_player()
    lobby = join(bgame, person, "kk")
    seated_at = bgame.clock.ms
    status = poll(bgame, person)
    assert status["bots_at"] == seated_at + FILL_MS
    assert status["searching_in_window"] == 0
    bgame.clock.set(seated_at + FILL_MS - 1)
    assert poll(bgame, person)["queued"]  # a millisecond early: still waiting
    bgame.clock.advance(600)  # the next poll, a little after the time: it fills the lobby
    assert not poll(bgame, person)["queued"]
    tid = started(bgame, person)
    t = bgame.stored(tid)
    assert t.created_at == t.rounds[0].intro_at == seated_at + FILL_MS  # D10: when it was due
    bots = [p for p in t.players if p.id != person.id]
    assert len(bots) == 7 and all(p.bot and p.house for p in bots)
    seen = bgame.get(f"/v1/lobbies/{lobby['id']}", person).get_json()
    assert seen["tournament_id"] == tid
    assert [s["bot"] for s in seen["seats"]] == [False] + [True] * 7
    state = bgame.state(person, tid)
    assert sorted(p["bot"] for p in state["players"]) == [False] + [True] * 7


def test_d18_d10_the_sweep_fills_a_lobby_nobody_polls_as_of_when_it_was_due(
    bgame: Game,
) -> None:
    """On Lambda the sweep runs once a minute: a lobby whose person stopped polling is filled
    by the first sweep after its time, and its tournament starts at that time, not later."""
    person = bgame.new_player()
    join(bgame, person, "uz")
    seated_at = bgame.clock.ms
    bgame.clock.set(seated_at + SWEEP_MS)
    report = service_of(bgame).sweep()
    assert report.filled == 1
    t = bgame.stored(started(bgame, person))
    assert t.created_at == seated_at + FILL_MS
    assert sum(p.house for p in t.players) == 7


def test_d18_d10_a_join_after_the_fill_was_due_finds_the_lobby_started(bgame: Game) -> None:
    """Nobody polled and no sweep came (a background tab, the minute between sweeps): the
    join that comes later fills that lobby as of its time and sits elsewhere, as it would had
    the fill been noticed on time."""
    waiting, late = bgame.new_players(2)
    join(bgame, waiting, "fr")
    seated_at = bgame.clock.ms
    bgame.clock.advance(FILL_MS + 20_000)
    lobby = join(bgame, late, "fr")
    assert [s["player_id"] for s in lobby["seats"]] == [late.id]
    t = bgame.stored(started(bgame, waiting))
    assert t.created_at == seated_at + FILL_MS and late.id not in {p.id for p in t.players}


def test_d18_every_seat_taken_moves_the_fill_later(bgame: Game) -> None:
    first, second = bgame.new_players(2)
    join(bgame, first)
    bgame.clock.advance(10_000)
    join(bgame, second)
    again = bgame.clock.ms
    assert poll(bgame, first)["bots_at"] == again + FILL_MS == poll(bgame, second)["bots_at"]
    bgame.clock.set(again + FILL_MS - 100)
    assert poll(bgame, first)["queued"]
    bgame.clock.set(again + FILL_MS)
    assert not poll(bgame, second)["queued"]
    t = bgame.stored(started(bgame, first))
    assert t.created_at == again + FILL_MS
    assert {first.id, second.id} < {p.id for p in t.players}
    assert sum(p.house for p in t.players) == 6


def test_d18_off_means_people_only(
    make_app: Callable[..., Flask], repo: Repository, clock: FakeClock
) -> None:
    game = Game(make_app(repo, settings=bot_settings(house_bots=False)).test_client(), clock, repo)
    person = game.new_player()
    join(game, person)
    for _ in range(10):
        clock.advance(5_000)
        status = poll(game, person)
        assert status["queued"] and status["bots_at"] is None
    assert service_of(game).sweep().filled == 0
    assert game.me(person)["tournament_id"] is None


def test_d18_a_lobby_without_a_person_is_never_filled(
    make_app: Callable[..., Flask], repo: Repository, clock: FakeClock
) -> None:
    """Bots that play through the API (the load harness's) are not people."""
    game = Game(make_app(repo, settings=bot_settings(bot_key="k")).test_client(), clock, repo)
    r = game.post("/v1/players", json={"bot": True}, headers={"X-Bot-Key": "k"})
    body = r.get_json()
    bot = Player(body["id"], body["token"], body["nickname"])
    join(game, bot)
    assert poll(game, bot)["bots_at"] is None
    clock.advance(FILL_MS + 1_000)
    assert poll(game, bot)["queued"]
    assert service_of(game).sweep().filled == 0


def test_d18_r22_a_groups_lobby_is_filled_the_same_way(bgame: Game) -> None:
    leader, friend = bgame.new_players(2)
    group = bgame.post("/v1/groups", leader, json={"language": "pl"}).get_json()
    r = bgame.post("/v1/groups/join", friend, json={"invite_code": group["invite_code"]})
    assert r.status_code == 200, r.get_json()
    r = bgame.post(f"/v1/groups/{group['id']}/start", leader)
    assert r.status_code == 201, r.get_json()
    seated_at = bgame.clock.ms
    assert poll(bgame, friend)["bots_at"] == seated_at + FILL_MS
    bgame.clock.set(seated_at + FILL_MS)
    assert not poll(bgame, leader)["queued"]
    t = bgame.stored(started(bgame, friend))
    assert {leader.id, friend.id} < {p.id for p in t.players}
    assert sum(p.house for p in t.players) == 6
    assert {p.group for p in t.players if not p.house} == {group["id"]}
