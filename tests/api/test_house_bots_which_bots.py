"""D18 in the service, over HTTP through the Flask app with a driven clock: which house bots
fill a lobby. They are rated near the lobby (R18), reused before new ones are made and rated
like anyone (R15), reused even while the tournament they went out of plays on (D14), never
lost to the lagging index's stale idle list; they have no token and are on no leaderboard,
and the queue counts people searching, not bots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from flask import Flask

from api.service.house_bots import NO_TOKEN
from api.service.players import SIGNED_OUT
from api.storage.memory import InMemoryRepository
from api.storage.repository import Put, Repository
from tests.api.clock import FakeClock
from tests.api.game import Game, Player, winning_sometimes
from tests.api.house_bots import (
    FILL_MS,
    SWEEP_MS,
    bot_settings,
    house_players,
    play_out_with_the_sweep,
    poll,
    service_of,
    started,
)
from tests.api.test_lobbies_and_groups import join, set_rating


def test_d18_r18_bots_are_rated_within_200_of_the_lobby(bgame: Game) -> None:
    person = bgame.new_player()
    set_rating(bgame, person, 1650)
    join(bgame, person, "ru")
    bgame.clock.advance(FILL_MS)
    poll(bgame, person)
    t = bgame.stored(started(bgame, person))
    mean = sum(p.rating for p in t.players) / 8
    assert all(abs(p.rating - 1650) <= 50 for p in t.players)  # new bots near the lobby
    assert all(abs(p.rating - mean) <= 200 for p in t.players)  # R18, for the bots too


def test_d18_bots_are_reused_before_new_ones_and_their_ratings_move(bgame: Game) -> None:
    first = bgame.new_player()
    join(bgame, first, "es")
    bgame.clock.advance(FILL_MS)
    poll(bgame, first)
    tid = started(bgame, first)
    bots = [p.id for p in bgame.stored(tid).players if p.house]
    play_out_with_the_sweep(bgame, first, tid)
    t = bgame.stored(tid)
    assert all(p.place is not None for p in t.players)  # every place written
    freed = house_players(bgame.repo, bots)
    assert all(b.idle_house_bot and b.played == 1 for b in freed)  # R15: rated like anyone
    assert any(b.rating != 1000 for b in freed)
    assert bgame.repo.idle_bots(1000, 200, 8)  # listed for reuse
    second = bgame.new_player()
    join(bgame, second, "de")
    bgame.clock.advance(FILL_MS)
    poll(bgame, second)
    again = bgame.stored(started(bgame, second))
    reused = {p.id for p in again.players if p.house}
    near = {b.id for b in freed if abs(b.rating - 1000) <= 100}
    assert near and near <= reused  # every idle bot near enough, before any new one
    made = [b for b in house_players(bgame.repo, list(reused)) if b.id not in bots]
    assert len(made) == 7 - len(near)


def test_d18_house_bots_have_no_token_and_are_on_no_leaderboard(bgame: Game) -> None:
    person = bgame.new_player()
    join(bgame, person)
    bgame.clock.advance(FILL_MS)
    poll(bgame, person)
    tid = started(bgame, person)
    play_out_with_the_sweep(bgame, person, tid)
    bots = house_players(bgame.repo, [p.id for p in bgame.stored(tid).players])
    assert len(bots) == 7 and NO_TOKEN == SIGNED_OUT
    assert all(b.token_hash == SIGNED_OUT for b in bots)
    r = bgame.get("/v1/me", headers={"Authorization": f"Bearer {bots[0].id}.{'x' * 43}"})
    assert r.status_code == 401
    assert {e.player_id for e in bgame.repo.active_players(0)} == {person.id}
    bgame.clock.advance(120_000)
    service_of(bgame).refresh_leaderboards()
    for name in ("en", None):
        query = {} if name is None else {"language": name}
        board = bgame.get("/v1/leaderboard", query_string=query).get_json()
        assert [line["player_id"] for line in board["top"]] == [person.id]


def test_d18_the_queue_counts_people_searching_not_bots(
    make_app: Callable[..., Flask], repo: Repository, clock: FakeClock
) -> None:
    """`searching_in_window`: people of the player's language within 200 of them, in lobbies
    nearby theirs cannot merge with (D15); a bot that plays through the API is no person."""
    game = Game(make_app(repo, settings=bot_settings(bot_key="k")).test_client(), clock, repo)
    far, also_far, person_near = game.new_players(3)
    r = game.post("/v1/players", json={"bot": True}, headers={"X-Bot-Key": "k"})
    body = r.get_json()
    bot_near = Player(body["id"], body["token"], body["nickname"])
    for p, rating in ((far, 1380), (also_far, 1380), (bot_near, 1190), (person_near, 1195)):
        set_rating(game, p, rating)
        join(game, p)
    me = game.new_player()
    lobby = join(game, me)
    assert len(lobby["seats"]) == 1  # 1000 is too far from their lobby (1286) to sit or meet
    assert poll(game, me)["searching_in_window"] == 1  # the person at 1195, not the bot


def test_d18_a_house_bot_reused_while_its_last_tournament_plays_on(bgame: Game) -> None:
    """D14: a bot whose place is fixed is free at once; a fill may claim it while the
    tournament it went out of still plays, and both go on."""
    first = bgame.new_player()
    join(bgame, first, "it")
    bgame.clock.advance(FILL_MS)
    poll(bgame, first)
    tid = started(bgame, first)

    def a_bot_out() -> bool:
        return any(p.house and p.place is not None for p in bgame.stored(tid).players)

    # The person wins every duel (they read the secret) and plays on; bots go out.
    bgame.play_to_end(tid, [first], winning_sometimes(1.0, bgame.rng), until=a_bot_out)
    out = [p for p in bgame.stored(tid).players if p.house and p.place is not None]
    assert out, "no bot went out"
    second = bgame.new_player()
    set_rating(bgame, second, out[0].rating + out[0].rating_change)  # type: ignore[operator]
    join(bgame, second, "nl")
    bgame.clock.advance(FILL_MS)
    poll(bgame, second)
    tid2 = started(bgame, second)
    assert out[0].id in {p.id for p in bgame.stored(tid2).players}
    record = bgame.repo.get_player(out[0].id)
    assert record is not None and record.tournament_id == tid2
    assert bgame.stored(tid).finished_at is None


def test_d18_a_bot_the_lagging_index_still_lists_after_its_claim_loses_nothing(
    make_app: Callable[..., Flask], clock: FakeClock
) -> None:
    """The index lags (a minute here): a fill that reads an idle bot another fill claimed
    since loses the race on that bot's version, reads the bots again by key, and fills with
    others."""
    repo = InMemoryRepository(index_lag_ms=SWEEP_MS, clock=clock)
    game = Game(make_app(repo, settings=bot_settings()).test_client(), clock, repo)
    first = game.new_player()
    join(game, first)
    clock.advance(FILL_MS)
    poll(game, first)
    tid = started(game, first)
    play_out_with_the_sweep(game, first, tid)
    clock.advance(2 * SWEEP_MS)  # the index shows them idle now
    idle = repo.idle_bots(1000, 100, 8)
    assert idle
    taken = idle[0]  # someone else claims it: the index does not show it for a minute
    repo.commit([Put(replace(taken, tournament_id="t_" + "0" * 16))])
    assert taken.id in {b.id for b in repo.idle_bots(1000, 100, 8)}
    second = game.new_player()
    join(game, second)
    clock.advance(FILL_MS)
    poll(game, second)
    t = game.stored(started(game, second))
    assert taken.id not in {p.id for p in t.players} and sum(p.house for p in t.players) == 7
    record = repo.get_player(taken.id)
    assert record is not None and record.tournament_id == "t_" + "0" * 16
