"""Polling the state: ETags, Poll-Interval, last-contact coalescing (D9) and D10."""

from __future__ import annotations

import itertools
from typing import Any

from api.config import Settings
from api.http import polling
from api.storage.memory import InMemoryRepository
from core import tournament as tm
from core.timing import Timing
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, TIMING, game_for
from tests.api.etags import without_pass
from tests.api.game import Game
from tests.api.repos import CountingRepo
from tests.api.words import fillers


def poll(game: Game, player: Any, tid: str, etag: str | None = None) -> Any:
    headers = {"If-None-Match": etag} if etag else {}
    return game.get(f"/v1/tournaments/{tid}/state", player, headers=headers)


@BOTH
def test_etag_304_and_changes_with_the_state(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    p = players[0]
    first = poll(game, p, tid)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and etag.endswith('"')
    assert first.headers["Cache-Control"] == "no-cache"

    same = poll(game, p, tid, etag)
    assert same.status_code == 304 and same.get_data() == b""
    assert same.headers["ETag"] == etag and float(same.headers["Poll-Interval"]) > 0
    assert poll(game, p, tid, '"nope", ' + etag).status_code == 304  # a list of ETags
    assert poll(game, p, tid, '"nope"').status_code == 200

    # Intro → duels changes the ETag though nothing was written (D10: by time alone).
    game.clock.set(first.get_json()["phase_deadline"])
    duels = poll(game, p, tid, etag)
    assert duels.status_code == 200 and duels.get_json()["phase"] == "duels"
    etag = duels.headers["ETag"]
    assert etag != first.headers["ETag"]
    assert poll(game, p, tid, etag).status_code == 304

    # A guess changes it, for both players of the duel and for others.
    duel = duels.get_json()["duel"]
    to_play = next(q for q in players if q.id == duel["to_play"])
    other = players[1] if players[1].id not in duel["players"] else players[2]
    other_etag = poll(game, other, tid).headers["ETag"]
    guessed = game.guess(to_play, tid, 0, fillers("en", duel["word_length"])[0])
    assert guessed.status_code == 200 and guessed.headers["ETag"] != etag
    assert poll(game, p, tid, etag).status_code == 200
    assert poll(game, other, tid, other_etag).status_code == 200
    etag = poll(game, p, tid).headers["ETag"]

    # A timeout changes it.
    game.clock.advance(TIMING.turn_ms)
    timed_out = poll(game, p, tid, etag)
    assert timed_out.status_code == 200 and timed_out.headers["ETag"] != etag
    skipped = timed_out.get_json()["duel"]["rows"][-1]
    assert skipped["skipped"]


def interval_ms(response: Any) -> int:
    return round(float(response.headers["Poll-Interval"]) * 1000)


def test_poll_interval_wakes_at_known_times_and_fast_while_the_opponent_plays(
    game: Game,
) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    intro = poll(game, players[0], tid)
    # The intro: nothing changes until the duels start (to the millisecond), and the client
    # keeps time: the advice is the one for the start of the duels, plus the wait until then.
    deadline = intro.get_json()["phase_deadline"]
    before = deadline - game.clock.ms
    duel = intro.get_json()["duel"]
    by = {p.id: p for p in players}
    to_play, waiting = by[duel["players"][0]], by[duel["players"][1]]
    assert duel["to_play"] == to_play.id and not duel["your_turn"]
    quiet = min(polling.QUIET_MS, TIMING.turn_ms * 2 // 15)  # nobody has answered yet
    own_turn = duel["deadline"] + polling.MARGIN_MS - deadline
    assert interval_ms(poll(game, to_play, tid)) == before + own_turn
    assert interval_ms(poll(game, waiting, tid)) == before + quiet
    game.clock.set(deadline)
    # Own turn: only the deadline (or our own guess) changes the duel.
    assert interval_ms(poll(game, to_play, tid)) == own_turn
    # The opponent's turn: quiet while nobody types that fast, then often.
    assert interval_ms(poll(game, waiting, tid)) == quiet
    game.clock.advance(quiet)
    assert interval_ms(poll(game, waiting, tid)) == polling.EVERY_MS
    # ...but never past the turn's deadline (the skip hands the turn over, R11).
    game.clock.set(duel["deadline"] - 300)
    assert interval_ms(poll(game, waiting, tid)) == 300 + polling.MARGIN_MS


def test_poll_interval_during_intro_counts_down_to_the_start(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    start = game.clock.ms
    intervals = []
    for t in range(0, TIMING.intro_ms, 1000):
        game.clock.set(start + t)
        intervals.append(interval_ms(poll(game, players[0], tid)))
    after_start = intervals[0] - TIMING.intro_ms
    assert after_start > 0
    assert intervals == [TIMING.intro_ms - t + after_start for t in range(0, TIMING.intro_ms, 1000)]


def test_finished_tournament_polls_slowly_and_stays_304(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    final = game.play_to_end(tid, players)
    assert final is not None
    r = poll(game, players[0], tid)
    assert interval_ms(r) == polling.IDLE_MS
    game.clock.advance(3_600_000)
    assert poll(game, players[0], tid, r.headers["ETag"]).status_code == 304


# ---------------------------------------------------------------------------- D9 coalescing


def test_d9_polls_write_at_most_one_touch_per_player_per_10s(
    make_app: Any, clock: FakeClock
) -> None:
    # Long timers so that, for a while, time alone changes nothing in the tournament.
    settings = Settings(
        timing=Timing(turn_ms=120_000, intro_ms=60_000, reconnect_ms=300_000),
        rate_limits=False,  # four polls a second, beyond the advised cadence
    )
    counting = CountingRepo(InMemoryRepository())
    game = game_for(make_app(counting, settings=settings), clock, counting)
    players = game.new_players(8)
    tid = game.queue(players)
    version = game.record(tid).version
    counting.reset()
    start = clock.ms
    # Everyone polls every 250 ms for 50 s of the intro.
    etags = set()
    while clock.ms < start + 50_000:
        for p in players:
            etags.add(without_pass(poll(game, p, tid).headers["ETag"]))
        clock.advance(250)
    assert counting.calls_to("commit") == 0
    assert game.record(tid).version == version  # touches do not bump the version...
    assert len(etags) == 1  # ...nor the ETag
    touches = [args for name, args in counting.calls if name == "touch"]
    for p in players:
        stamps = [now for (t, pid, now) in touches if pid == p.id]
        assert all(b - a >= 10_000 for a, b in itertools.pairwise(stamps)), stamps
        assert 4 <= len(stamps) <= 5, stamps  # at 10, 20, 30, 40, (50) s
    # And a contact stamp is what the disconnect window runs from (D9).
    stored = game.stored(tid)
    assert all(start + 40_000 <= p.last_contact < start + 50_000 for p in stored.players)


@BOTH
def test_d9_touch_coalescing_on_each_repository(game: Game, repo: Any) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    start = game.clock.ms
    p = players[0]
    for _ in range(5):
        poll(game, p, tid)
    assert game.stored(tid).player(p.id).last_contact == start  # nothing written yet
    game.clock.advance(10_000)
    poll(game, p, tid)
    poll(game, p, tid)
    assert game.stored(tid).player(p.id).last_contact == start + 10_000


def test_d9_a_guess_is_contact_stored_by_its_own_write(make_app: Any, clock: FakeClock) -> None:
    """A played guess writes the tournament anyway: its contact goes in that write, with no
    touch of its own; a refused guess still counts as contact."""
    settings = Settings(timing=Timing(turn_ms=60_000, intro_ms=2_000, reconnect_ms=300_000))
    counting = CountingRepo(InMemoryRepository())
    game = game_for(make_app(counting, settings=settings), clock, counting)
    players = game.new_players(8)
    tid = game.queue(players)
    clock.set(game.state(players[0], tid)["starts_at"])
    duel = game.state(players[0], tid)["duel"]
    me = next(p for p in players if p.id == duel["to_play"])
    clock.advance(15_000)  # more than 10 s since the last contact stamp
    counting.reset()
    refused = game.guess(me, tid, 0, "q" * duel["word_length"])
    assert refused.status_code == 422
    assert counting.calls_to("touch") == 1  # a refused guess writes nothing else
    assert game.stored(tid).player(me.id).last_contact == clock.ms
    clock.advance(12_000)
    counting.reset()
    played = game.guess(me, tid, 0, fillers("en", duel["word_length"])[0])
    assert played.status_code == 200
    assert counting.calls_to("touch") == 0 and counting.calls_to("commit") == 1
    assert game.stored(tid).player(me.id).last_contact == clock.ms


# ---------------------------------------------------------------------------- D10 and the sweep


def test_d10_sweep_steps_equal_one_advance_and_polls_agree(
    make_app: Any, clock: FakeClock, settings: Settings
) -> None:
    """The state at t is the same whether the sweep moved it in many small steps or it is
    computed in one go; a poll afterwards computes the same and writes nothing."""
    counting = CountingRepo(InMemoryRepository())
    app = make_app(counting)
    service = app.extensions["service"]
    game = game_for(app, clock, counting)
    players = game.new_players(8)
    tid = game.queue(players)
    start = game.stored(tid)
    assert service.sweep().advanced == 0  # nothing is due yet
    # Nobody polls: turns time out (R11) and the sweep alone moves the tournament on.
    end = clock.ms + TIMING.reconnect_ms - 1  # before anybody's window closes
    while clock.ms < end:
        clock.set(min(end, clock.ms + 1_500))
        service.sweep()
    swept = game.stored(tid)
    assert sum(len(d.turns) for d in swept.rounds[0].duels) >= 8  # skips, written by the sweep
    at_once, _ = tm.advance(start, clock.ms, service.ctx.words(start.language))
    assert swept == at_once
    counting.reset()
    st = game.state(players[0], tid)
    assert counting.calls_to("commit") == 0 and st["server_time"] == clock.ms
    assert service.sweep().advanced == 0
