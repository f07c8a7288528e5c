"""D18 in the service, over HTTP through the Flask app with a driven clock: house bots fill a
lobby in which a person has waited WT_BOT_FILL_SECONDS since its last seat was taken, whoever
notices first (the queue's polls, the sweep); they are rated, reused, marked and on no
leaderboard; the poll advice knows their moves; and with the sweep only every 60 s (the
deployed cadence) a person alone plays a whole tournament with no late turn, and the bots left
alone end it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.config import Settings, default_outage_gap
from api.service import Service
from api.service.house_bots import NO_TOKEN
from api.service.players import SIGNED_OUT
from api.storage.memory import InMemoryRepository
from api.storage.records import PlayerRecord
from api.storage.repository import Put, Repository
from core import house
from core.timing import Timing
from tests.api.clock import FakeClock
from tests.api.game import Game, Player, winning_sometimes
from tests.api.test_lobbies_and_groups import join, set_rating
from tests.deploy.solo import Solo

FILL_MS = 15_000
REAL = Timing()  # R10, R2, R21: 30 s turns, 6 s intros, 60 s to come back
SWEEP_MS = 60_000  # the deployed schedule (infra: rate(1 minute))


def bot_settings(**changes: Any) -> Settings:
    base: dict[str, Any] = {"timing": REAL, "house_bots": True, "bot_fill_ms": FILL_MS}
    return Settings(**{**base, **changes})


@pytest.fixture
def bots_app(make_app: Callable[..., Flask], repo: Repository) -> Flask:
    return make_app(repo, settings=bot_settings())


@pytest.fixture
def bgame(bots_app: Flask, clock: FakeClock, repo: Repository) -> Game:
    return Game(bots_app.test_client(), clock, repo)


def service_of(game: Game) -> Service:
    service: Service = game.client.application.extensions["service"]
    return service


def house_players(repo: Repository, ids: list[str]) -> list[PlayerRecord]:
    return [p for p in repo.get_players(ids) if p.house]


def poll(game: Game, player: Player) -> dict[str, Any]:
    r = game.get("/v1/queue", player)
    assert r.status_code == 200, r.get_json()
    body: dict[str, Any] = r.get_json()
    return body


def started(game: Game, player: Player) -> str:
    tid = game.me(player)["tournament_id"]
    assert tid is not None
    return str(tid)


def flask_call(client: FlaskClient) -> Any:
    def call(method: str, path: str, body: Any, token: str | None) -> tuple[int, dict, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = client.open(path, method=method, json=body, headers=headers)
        return r.status_code, {k.lower(): v for k, v in r.headers.items()}, r.get_json(silent=True)

    return call


# ---------------------------------------------------------------------------- when


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


# ---------------------------------------------------------------------------- which


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


def play_out_with_the_sweep(game: Game, person: Player, tid: str) -> None:
    """The person leaves at once (R20); only the sweep runs, once a minute, until the bots
    alone have ended the tournament (D18: at the close of that round)."""
    r = game.leave(person, tid)
    assert r.status_code == 200, r.get_json()
    for _ in range(30):
        if game.stored(tid).finished_at is not None:
            return
        game.clock.advance(SWEEP_MS)
        service_of(game).sweep()
    raise AssertionError("the bots never ended the tournament")


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


# ---------------------------------------------------------------------------- advice


def test_d18_the_poll_advice_wakes_just_after_a_house_bots_move(bgame: Game) -> None:
    person = bgame.new_player()
    join(bgame, person)
    bgame.clock.advance(FILL_MS)
    poll(bgame, person)
    tid = started(bgame, person)
    checked = 0
    for _ in range(200):
        r = bgame.get(f"/v1/tournaments/{tid}/state", person)
        state, advice = r.get_json(), round(1000 * float(r.headers["Poll-Interval"]))
        if state["phase"] == "finished" or checked >= 3:
            break
        t = bgame.stored(tid)
        duel = t.rounds[-1].duel_of(person.id)
        now = bgame.clock.ms
        live = duel is not None and duel.ended_at is None and now >= duel.starts_at
        if live and duel is not None and duel.to_play != person.id:
            at = house.move_at(t.seed, duel, t.house_bots())
            expected = (duel.deadline if at is None else at) + 100 - now  # MARGIN_MS
            # At most half the outage gap apart (10 s): a lone person keeps the heartbeat.
            assert advice == min(expected, default_outage_gap(REAL) // 2)
            checked += 1
            bgame.clock.advance(advice)
            continue
        if live and duel is not None:  # our turn: let it go (R11), the bot plays next
            bgame.clock.set(duel.deadline or now)
            continue
        bgame.clock.advance(advice)
    assert checked >= 3


# ---------------------------------------------------------------------------- a whole game


@pytest.mark.parametrize("language", ["kk", "en", "uk"])
def test_d18_at_the_deployed_cadence_a_person_alone_plays_a_whole_tournament_on_time(
    bgame: Game, language: str
) -> None:
    """WT_SWEEP_SECONDS=60: the queue's own polls start it within WT_BOT_FILL_SECONDS + 5 s,
    with seven marked bots; every turn of the person's begins at the bot's move and their
    poll advice brings it to them at once, for the whole turn; once they are out only the
    sweep runs, and the bots left alone end the tournament and write every place."""
    clock = bgame.clock
    solo = Solo(
        flask_call(bgame.client),
        clock,
        clock.set,
        language=language,
        sweep=service_of(bgame).sweep,
        sweep_every_ms=SWEEP_MS,
    )
    solo.queue()
    assert solo.bots_at == solo.queued_at + FILL_MS
    assert solo.seen_started is not None
    assert solo.seen_started - solo.queued_at <= FILL_MS + 5_000
    final = solo.play()
    assert solo.tournament_id is not None
    t0 = bgame.stored(solo.tournament_id)
    assert t0.created_at == solo.bots_at  # D10: when it was due, not when a poll noticed
    assert len(solo.bots()) == 7
    assert solo.turns and solo.late_turns(REAL.turn_ms, late_ms=200) == []
    assert all(t.played is not None for t in solo.turns)  # every guess reached its turn
    assert solo.refused == [] and solo.moved_on == []
    heartbeat = bgame.repo.get_clock()  # no quiet moment taken for an outage while playing
    assert heartbeat is not None and solo.out_at is not None
    assert all(end > solo.out_at for _, end in heartbeat.outages)
    me = next(p for p in final["players"] if p["id"] == solo.player_id)
    assert me["status"] in ("out", "winner")
    solo.watch_sweeps_until(
        lambda: bgame.stored(solo.tournament_id or "").finished_at is not None, 3_600_000
    )
    t = bgame.stored(solo.tournament_id)
    assert t.finished_at is not None and all(p.place is not None for p in t.players)
    assert [line.result.tournament_id for line in bgame.repo.history(solo.player_id, 5)] == [t.id]
    bots = house_players(bgame.repo, [p.id for p in t.players])
    assert len(bots) == 7 and all(b.tournament_id is None for b in bots)


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


def _alone(sweep_ms: int, language: str = "pl") -> tuple[Solo, Game]:
    """A person alone, with the sweep every `sweep_ms` (WT_SWEEP_SECONDS), the same seed and
    clock start for each cadence, until the tournament has ended and written its places."""
    from api import bootstrap
    from api.http.app import create_app

    clock, repo = FakeClock(1_760_000_000_000), InMemoryRepository()
    settings = bot_settings(sweep_ms=sweep_ms, rate_limits=False)
    app = create_app(bootstrap.service(settings, repo, clock=clock, seed=11))
    game = Game(app.test_client(), clock, repo)
    solo = Solo(
        flask_call(game.client),
        clock,
        clock.set,
        language=language,
        sweep=service_of(game).sweep,
        sweep_every_ms=sweep_ms,
    )
    solo.queue()
    solo.play()
    solo.watch_sweeps_until(
        lambda: game.stored(solo.tournament_id or "").finished_at is not None, 3_600_000
    )
    return solo, game


def test_d18_at_60_s_a_person_with_seven_bots_plays_as_well_as_at_1_s() -> None:
    """WT_SWEEP_SECONDS=60 (deployed) against 1 (make run): the same tournament, move for move,
    since the bots' moves are a function of the stored tournament and the time (D10), not of
    who noticed them when; no turn late for the person at either cadence; and once only bots
    are left, the sweep alone ends it and writes every place (at 60 s a little later)."""
    runs = {ms: _alone(ms) for ms in (1_000, SWEEP_MS)}
    played = {}
    for ms, (solo, game) in runs.items():
        assert (
            solo.seen_started is not None and solo.seen_started - solo.queued_at <= FILL_MS + 5_000
        )
        assert len(solo.bots()) == 7
        assert solo.turns and solo.late_turns(REAL.turn_ms, late_ms=200) == [], ms
        assert solo.refused == [] and solo.moved_on == []
        t = game.stored(solo.tournament_id or "")
        assert t.finished_at is not None and all(p.place is not None for p in t.players)
        played[ms] = (
            [(p.nickname, p.place) for p in t.players],
            [[(turn.word, turn.at) for turn in d.turns] for r in t.rounds for d in r.duels],
        )
    assert played[1_000] == played[SWEEP_MS]
    # The deployed cadence costs the person nothing: they saw their tournament as soon.
    assert runs[1_000][0].seen_started == runs[SWEEP_MS][0].seen_started
