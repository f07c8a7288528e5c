"""D18 in the service, over HTTP through the Flask app with a driven clock: a person alone
with seven house bots, at the deployed cadence. The poll advice knows the bots' moves; with
the sweep only every 60 s (the deployed cadence) a person alone plays a whole tournament with
no late turn, move for move the one they would play with the sweep every second, and the bots
left alone end it.
"""

from __future__ import annotations

import pytest

from api.config import default_outage_gap
from api.storage.memory import InMemoryRepository
from core import house
from tests.api.clock import FakeClock
from tests.api.game import Game
from tests.api.house_bots import (
    FILL_MS,
    REAL,
    SWEEP_MS,
    bot_settings,
    flask_call,
    house_players,
    poll,
    service_of,
    started,
)
from tests.api.test_lobbies_and_groups import join
from tests.deploy.solo import Solo


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
