"""The poll advice for each situation a viewer can be in (pure: core tournaments, no HTTP)."""

from __future__ import annotations

import math
import random

import pytest

from api.http import polling
from api.http.polling import Viewer, answer_times, poll_after_ms, quiet_ms
from core import tournament as tm
from core.duel import Duel
from core.evolve import evolve
from core.timing import Timing
from tests.core.helpers import (
    INTRO,
    NO_DISCONNECTS,
    PIDS,
    TURN,
    WORDS,
    play_duel,
    play_out,
    start,
    with_lives,
    wrong_guess,
)

QUIET = min(polling.QUIET_MS, TURN * 2 // 15)  # before a player's first answer
MARGIN = polling.MARGIN_MS
EVERY = polling.EVERY_MS


@pytest.fixture
def live() -> tm.Tournament:
    t = start(seed=3, timing=NO_DISCONNECTS)
    t, _ = tm.advance(t, t.round.starts_at, WORDS)
    return t


def expected_quiet(times: list[int], share: float = polling.PACE_SHARE) -> int:
    """A share of the geometric mean of `times`, the margin widened for few of them, plus one
    interval."""
    n = len(times)
    usual = math.exp(sum(math.log(x) for x in times) / n)
    return round(share ** math.sqrt(1 + 1 / n) * usual) + EVERY


def duel(t: tm.Tournament, i: int = 0) -> Duel:
    return t.round.duels[i]


def answer(t: tm.Tournament, d: Duel, after_ms: int) -> tm.Tournament:
    """The player to play answers `after_ms` into their turn, with a wrong word."""
    d = next(x for x in t.round.duels if x.id == d.id)
    at = d.turn_started_at + after_ms
    t, _ = tm.guess(t, d.to_play, len(d.turns), wrong_guess(d.secret, len(d.turns)), at, WORDS)
    return t


def test_r2_intro_advises_what_the_start_of_the_duels_will_need() -> None:
    """Nothing changes in the intro and the client keeps time (the duels start by the clock):
    the first mover wakes after their deadline, the other at their opponent's quiet start."""
    t = start(seed=3, timing=Timing())
    d = duel(t)
    first, second = d.to_play, d.opponent(d.to_play)
    for now in (0, 2_500, t.round.starts_at - 500):
        before = t.round.starts_at - now
        assert poll_after_ms(t, Viewer(first), now) == before + TURN + MARGIN
        assert poll_after_ms(t, Viewer(second), now) == before + QUIET
    assert 2 * Timing().reconnect_ms // 3 >= INTRO + TURN + MARGIN  # D9: still in the window


def test_own_turn_wakes_just_after_its_deadline(live: tm.Tournament) -> None:
    d = duel(live)
    me = d.to_play
    assert poll_after_ms(live, Viewer(me), d.starts_at) == TURN + MARGIN
    assert poll_after_ms(live, Viewer(me), d.starts_at + 25_000) == TURN - 25_000 + MARGIN


def test_d9_waits_stay_well_inside_the_reconnect_window() -> None:
    """Polls are the player's contact: no advice lets the 60 s window (D9) come close."""
    t = start(seed=3, timing=Timing(reconnect_ms=36_000))
    t, _ = tm.advance(t, t.round.starts_at, WORDS)
    me = duel(t).to_play
    assert poll_after_ms(t, Viewer(me), t.round.starts_at) == 24_000  # two thirds of 36 s
    assert poll_after_ms(t, Viewer(me), t.round.intro_at) == 24_000


def test_opponents_turn_quiet_start_then_every_interval_then_its_deadline(
    live: tm.Tournament,
) -> None:
    d = duel(live)
    waiting = d.players[1]
    start_at = d.starts_at
    assert poll_after_ms(live, Viewer(waiting), start_at) == QUIET
    assert poll_after_ms(live, Viewer(waiting), start_at + QUIET - 500) == 500
    assert poll_after_ms(live, Viewer(waiting), start_at + QUIET) == EVERY
    assert poll_after_ms(live, Viewer(waiting), start_at + TURN - 300) == 300 + MARGIN
    # A guess starts the next turn: the new player to play has not answered yet.
    t = answer(live, d, 7_000)
    assert poll_after_ms(t, Viewer(d.players[0]), start_at + 7_000) == QUIET


def test_answer_times_count_each_guess_from_the_start_of_its_turn_skips_left_out(
    live: tm.Tournament,
) -> None:
    d = duel(live)
    first, second = d.to_play, d.opponent(d.to_play)
    t = answer(live, d, 12_000)  # first: 12 s
    t = answer(t, d, 5_000)  # second: 5 s
    t, _ = tm.advance(t, d.starts_at + 17_000 + TURN, WORDS)  # first lets the turn time out
    t = answer(t, d, 8_000)  # second: 8 s after the skip handed the turn over
    assert answer_times(t, first) == [12_000]
    assert answer_times(t, second) == [5_000, 8_000]
    assert answer_times(t, PIDS[7] if PIDS[7] not in d.players else PIDS[6]) == []


def test_the_quiet_start_follows_the_pace_of_the_player_to_play(live: tm.Tournament) -> None:
    """A player who took 10 s and 20 s rarely answers within half of that: their opponent's
    client looks from a share of the geometric mean (14.1 s) plus one interval."""
    d = duel(live)
    slow = d.to_play
    t = answer(live, d, 10_000)
    t = answer(t, d, 3_000)
    t = answer(t, d, 20_000)
    t = answer(t, d, 3_000)
    assert quiet_ms(t, slow) == expected_quiet([10_000, 20_000])
    turn_start = duel(t).turn_started_at
    watcher = d.opponent(slow)
    assert duel(t).to_play == slow
    assert poll_after_ms(t, Viewer(watcher), turn_start) == quiet_ms(t, slow)
    # The fast one (3 s and 3 s) is looked for much sooner.
    assert quiet_ms(t, watcher) == expected_quiet([3_000, 3_000]) < quiet_ms(t, slow)


def test_the_pace_is_the_players_latest_answers(
    live: tm.Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who slowed down or sped up is judged by their latest answers."""
    d = duel(live)
    player = d.to_play
    t = live
    for i in range(10):  # the player answers in 25, 25, 6, 6, 6 s; the opponent in 2 s
        t = answer(t, d, 2_000 if i % 2 else (25_000 if i < 4 else 6_000))
    assert answer_times(t, player) == [25_000, 25_000, 6_000, 6_000, 6_000]
    monkeypatch.setattr(polling, "PACE_TURNS", 3)
    assert quiet_ms(t, player) == expected_quiet([6_000] * 3)


def test_one_answer_tells_a_players_pace_less_surely_than_several(live: tm.Tournament) -> None:
    d = duel(live)
    player = d.to_play
    once = answer(live, d, 10_000)
    assert quiet_ms(once, player) == expected_quiet([10_000])
    thrice = answer(answer(answer(answer(once, d, 3_000), d, 10_000), d, 3_000), d, 10_000)
    assert answer_times(thrice, player) == [10_000] * 3
    assert quiet_ms(once, player) < quiet_ms(thrice, player) < 10_000 // 2 + EVERY


def _all_but(t: tm.Tournament, left: int) -> tuple[tm.Tournament, int]:
    """Every duel but the first `left` played to an end, one guess a second."""
    now = t.round.starts_at
    for d in t.round.duels[left:]:
        t, now, _ = play_duel(t, d.id, d.players[0], now)
    return t, now


def test_waiting_polls_every_few_seconds_while_two_or_more_duels_are_left(
    live: tm.Tournament,
) -> None:
    t, now = _all_but(live, 3)
    assert sum(x.ended_at is None for x in t.round.duels) == 3
    for who in duel(t, 3).players:
        assert poll_after_ms(t, Viewer(who), now) == polling.DUELS_MS
    t, now = _all_but(live, 2)
    for who in duel(t, 3).players:
        assert poll_after_ms(t, Viewer(who), now) == polling.TWO_DUELS_MS


def test_r2_waiting_for_the_last_duel_polls_like_its_players_with_a_wider_margin(
    live: tm.Tournament,
) -> None:
    """Any guess of the last duel may end the round, and the next intro must be seen whole;
    a round's end makes every waiting player late at once, so they keep a wider margin."""
    t, _ = _all_but(live, 1)
    t = answer(t, duel(t), 9_000)
    t = answer(t, duel(t), 9_000)
    last = duel(t)
    waiting = duel(t, 1).players[0]
    started = last.turn_started_at
    expected = quiet_ms(t, last.to_play, polling.ROUND_SHARE)
    assert answer_times(t, last.to_play) == [9_000]
    assert expected == expected_quiet([9_000], polling.ROUND_SHARE)
    assert expected < quiet_ms(t, last.to_play)
    assert poll_after_ms(t, Viewer(waiting), started) == expected
    later = started + expected
    assert poll_after_ms(t, Viewer(waiting), later) == min(EVERY, last.deadline + MARGIN - later)


def _with_group(t: tm.Tournament, members: set[str]) -> tm.Tournament:
    return evolve(
        t,
        players=tuple(evolve(p, group="g1" if p.id in members else None) for p in t.players),
    )


def test_r9_a_player_who_is_out_watches_every_few_seconds_unless_watching_a_duel(
    live: tm.Tournament,
) -> None:
    loser = duel(live, 1).players[1]
    t = with_lives(live, {loser: 1})
    t, now = _all_but(t, 1)
    assert t.player(loser).lives == 0
    last = duel(t)
    at = max(now, last.turn_started_at + QUIET)
    assert poll_after_ms(t, Viewer(loser), at) == polling.OUT_MS
    watching = poll_after_ms(t, Viewer(loser, watching=last.id), at)
    assert watching == min(EVERY, last.deadline + MARGIN - at)
    # Watching a duel that is over changes nothing.
    over = duel(t, 1).id
    assert poll_after_ms(t, Viewer(loser, watching=over), at) == polling.OUT_MS


def test_d14_r22_out_in_a_group_polls_fast_only_once_the_group_may_start_again(
    live: tm.Tournament,
) -> None:
    """Free once out (D14), so the group's leader may seat them anew, but only once no member
    is still in a tournament (R22); while one plays on here it may leave at any moment, so
    every 3 s (the new tournament's first intro must not be missed, R2)."""
    loser = duel(live, 1).players[1]
    t = with_lives(live, {loser: 1})
    t, now = _all_but(t, 1)
    playing_on = duel(t).players[0]
    at = max(now, duel(t).turn_started_at + QUIET)
    with_member = _with_group(t, {loser, playing_on})
    assert poll_after_ms(with_member, Viewer(loser, group="g1"), at) == polling.GROUP_WAIT_MS
    alone = _with_group(t, {loser})
    assert poll_after_ms(alone, Viewer(loser, group="g1"), at) == polling.GROUP_MS
    # A member who is out too does not hold the group back.
    out_too = duel(t, 2).players[1]
    both_out = with_lives(_with_group(t, {loser, out_too}), {out_too: 0})
    assert poll_after_ms(both_out, Viewer(loser, group="g1"), at) == polling.GROUP_MS


def test_r22_tournament_start_records_each_players_group() -> None:
    seats = [tm.Seat(pid, pid, 1000, group="g1" if i < 3 else None) for i, pid in enumerate(PIDS)]
    t, _ = tm.start("t1", "en", seats, 0, random.Random(1), WORDS, Timing())
    assert [p.group for p in t.players] == ["g1"] * 3 + [None] * 5


def test_r22_finished_polls_rarely_unless_a_group_leader_may_start_again() -> None:
    t, _ = play_out(start(seed=3))
    end = t.finished_at or 0
    assert poll_after_ms(t, Viewer("p0"), end + 5) == polling.IDLE_MS
    assert poll_after_ms(t, Viewer("p0", group="g1"), end + 5) == polling.GROUP_MS


def test_poll_interval_header_is_seconds_to_the_millisecond() -> None:
    assert polling.header(1000) == "1"
    assert polling.header(30_000) == "30"
    assert polling.header(2_350) == "2.35"
    assert polling.header(200) == "0.2"
    assert polling.header(6_101) == "6.101"
