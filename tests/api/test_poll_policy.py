"""The poll advice for each situation a viewer can be in (pure: core tournaments, no HTTP)."""

from __future__ import annotations

import pytest

from api.http import polling
from api.http.polling import Viewer, poll_after_ms
from core import tournament as tm
from core.timing import Timing
from tests.core.helpers import TURN, WORDS, play_duel, play_out, start, with_lives, wrong_guess

QUIET = min(polling.QUIET_MS, TURN * 2 // 15)
MARGIN = polling.MARGIN_MS


@pytest.fixture
def live() -> tm.Tournament:
    t = start(seed=3, timing=Timing())
    t, _ = tm.advance(t, t.round.starts_at, WORDS)
    return t


def test_r2_intro_wakes_just_after_the_duels_start() -> None:
    t = start(seed=3)
    for now in (0, 2_500, t.round.starts_at - 500):
        assert poll_after_ms(t, Viewer("p0"), now) == t.round.starts_at + MARGIN - now


def test_own_turn_wakes_just_after_its_deadline(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    me = d.to_play
    assert poll_after_ms(live, Viewer(me), d.starts_at) == TURN + MARGIN
    assert poll_after_ms(live, Viewer(me), d.starts_at + 25_000) == TURN - 25_000 + MARGIN


def test_d9_waits_stay_well_inside_the_reconnect_window() -> None:
    """Polls are the player's contact: no advice lets the 60 s window (D9) come close."""
    t = start(seed=3, timing=Timing(reconnect_ms=36_000))
    t, _ = tm.advance(t, t.round.starts_at, WORDS)
    me = t.round.duels[0].to_play
    assert poll_after_ms(t, Viewer(me), t.round.starts_at) == 24_000  # two thirds of 36 s


def test_opponents_turn_quiet_start_then_every_second_then_its_deadline(
    live: tm.Tournament,
) -> None:
    d = live.round.duels[0]
    waiting = d.players[1]
    start_at = d.starts_at
    assert poll_after_ms(live, Viewer(waiting), start_at) == QUIET
    assert poll_after_ms(live, Viewer(waiting), start_at + QUIET - 500) == 500
    assert poll_after_ms(live, Viewer(waiting), start_at + QUIET) == polling.OPPONENT_MS
    assert poll_after_ms(live, Viewer(waiting), start_at + TURN - 300) == 300 + MARGIN
    # A guess starts the next turn: quiet again from its time.
    t, _ = tm.guess(live, d.players[0], 0, wrong_guess(d.secret), start_at + 7_000, WORDS)
    assert poll_after_ms(t, Viewer(d.players[0]), start_at + 7_000) == QUIET


def _all_but_one_duel_over(t: tm.Tournament) -> tuple[tm.Tournament, int]:
    now = t.round.starts_at
    for duel in t.round.duels[1:]:
        t, now, _ = play_duel(t, duel.id, duel.players[0], now)
    return t, now


def test_waiting_with_two_or_more_duels_left_polls_every_few_seconds(live: tm.Tournament) -> None:
    d = live.round.duels[1]
    t, now, _ = play_duel(live, d.id, d.players[0], d.starts_at)
    assert sum(x.ended_at is None for x in t.round.duels) == 3
    for who in d.players:
        assert poll_after_ms(t, Viewer(who), now) == polling.DUELS_MS


def test_r2_waiting_for_the_last_duel_polls_like_its_players(live: tm.Tournament) -> None:
    """Any guess of the last duel may end the round, and the next intro must be seen whole."""
    t, now = _all_but_one_duel_over(live)
    last = t.round.duels[0]
    waiting = t.round.duels[1].players[0]
    started = last.turn_started_at
    assert poll_after_ms(t, Viewer(waiting), started) == QUIET
    later = max(now, started + QUIET)
    assert poll_after_ms(t, Viewer(waiting), later) == min(
        polling.LAST_DUEL_MS, last.deadline + MARGIN - later
    )


def test_r9_a_player_who_is_out_watches_every_few_seconds_unless_watching_a_duel(
    live: tm.Tournament,
) -> None:
    loser = live.round.duels[1].players[1]
    t = with_lives(live, {loser: 1})
    t, now = _all_but_one_duel_over(t)
    assert t.player(loser).lives == 0
    last = t.round.duels[0]
    at = max(now, last.turn_started_at + QUIET)
    assert poll_after_ms(t, Viewer(loser), at) == polling.DUELS_MS
    watching = poll_after_ms(t, Viewer(loser, watching=last.id), at)
    assert watching == min(polling.OPPONENT_MS, last.deadline + MARGIN - at)
    # Watching a duel that is over changes nothing.
    over = t.round.duels[1].id
    assert poll_after_ms(t, Viewer(loser, watching=over), at) == polling.DUELS_MS
    # D14, R22: free, so a group's leader may seat them in a new tournament at any moment.
    assert poll_after_ms(t, Viewer(loser, in_group=True), at) == polling.GROUP_MS


def test_r22_finished_polls_rarely_unless_a_group_leader_may_start_again() -> None:
    t, _ = play_out(start(seed=3))
    end = t.finished_at or 0
    assert poll_after_ms(t, Viewer("p0"), end + 5) == polling.IDLE_MS
    assert poll_after_ms(t, Viewer("p0", in_group=True), end + 5) == polling.GROUP_MS


def test_poll_interval_header_is_seconds_to_the_millisecond() -> None:
    assert polling.header(1000) == "1"
    assert polling.header(30_000) == "30"
    assert polling.header(2_350) == "2.35"
    assert polling.header(200) == "0.2"
    assert polling.header(6_101) == "6.101"
