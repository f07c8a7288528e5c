"""R1, R2, R6–R8, D1: the shape of a tournament, its rounds, eliminations and places."""

from __future__ import annotations

import random

import pytest

from core import tournament as tm
from core.events import PlaceFixed, RoundStarted, TournamentFinished
from core.timing import Timing
from tests.core.helpers import (
    INTRO,
    PIDS,
    WORDS,
    check_invariants,
    loses,
    lower_index_wins,
    play_out,
    play_round,
    seats,
    start,
    with_lives,
)


def test_r1_eight_players_with_three_lives() -> None:
    t = start()
    assert [p.id for p in t.players] == list(PIDS)
    assert all(p.lives == 3 and p.place is None for p in t.players)
    for wrong in (seats()[:7], [*seats(), tm.Seat("p8", "x", 1000)], [*seats()[:7], seats()[0]]):
        with pytest.raises(ValueError):
            tm.start("t", "en", wrong, 0, random.Random(0), WORDS)


def test_r2_all_duels_of_a_round_run_at_once_after_a_six_second_intro() -> None:
    t, events = tm.start("t", "en", seats(), 500, random.Random(0), WORDS, Timing())
    assert events == [RoundStarted(1, 500, 500 + INTRO)]
    assert INTRO == 6_000
    assert len(t.round.duels) == 4 and t.round.bye is None
    assert {d.starts_at for d in t.round.duels} == {500 + INTRO}
    assert t.phase(500 + INTRO - 1) == "intro" and t.phase(500 + INTRO) == "duels"


def test_r2_a_round_ends_when_its_last_duel_ends_then_the_next_intro_starts() -> None:
    t = start()
    d1, *others = t.round.duels
    now = t.round.starts_at
    for d in others:  # three duels end quickly...
        t, _ = tm.guess(t, d.players[0], 0, d.secret, now, WORDS)
    assert t.round.number == 1 and t.round.ended_at is None
    last = now + 25_000  # ...and the round waits for the last one
    t, events = tm.guess(t, d1.players[0], 0, d1.secret, last, WORDS)
    assert t.rounds[0].ended_at == last
    assert t.round.number == 2
    assert (t.round.intro_at, t.round.starts_at) == (last, last + INTRO)
    assert RoundStarted(2, last, last + INTRO) in events
    check_invariants(t)


def test_r6_with_an_odd_number_left_one_player_gets_a_bye_and_loses_nothing() -> None:
    t = start(seed=2)
    out = t.round.duels[0].players[0]
    t, _, _ = play_round(with_lives(t, {out: 1}), loses(out))
    assert t.round.number == 2 and len(t.round.duels) == 3
    bye = t.round.bye
    assert bye is not None
    before = {p.id: p.lives for p in t.players}
    t, _, _ = play_round(t, lambda d: None)  # every duel a draw
    assert t.player(bye).lives == before[bye]
    assert all(t.player(p).lives == before[p] - 1 for d in t.rounds[1].duels for p in d.players)
    check_invariants(t, lives_from_duels=False)


def test_r7_at_zero_lives_you_are_out_and_the_last_player_left_wins() -> None:
    t, events = play_out(start(seed=4), lower_index_wins)
    finished = [e for e in events if isinstance(e, TournamentFinished)]
    assert finished == [TournamentFinished(t.finished_at or -1, "p0")]
    assert t.player("p0").place == 1 and t.player("p0").lives > 0
    assert t.player("p0").status == "winner"
    assert all(p.lives == 0 and p.status == "out" for p in t.players if p.id != "p0")
    check_invariants(t)


def test_r8_d1_players_out_in_the_same_round_share_a_place_nobody_gets_the_next() -> None:
    t = start(seed=5)
    a, b = t.round.duels[0].players[0], t.round.duels[1].players[0]
    t, _, events = play_round(with_lives(t, {a: 1, b: 1}), loses(a, b))
    assert t.player(a).place == t.player(b).place == 7  # D1: 1 + six players still in
    assert t.player(a).out_round == t.player(b).out_round == 1
    fixed = {e.player: e.place for e in events if isinstance(e, PlaceFixed)}
    assert fixed == {a: 7, b: 7}
    t, _ = play_out(t)
    assert 8 not in {p.place for p in t.players}
    check_invariants(t, lives_from_duels=False)


def test_r8_a_round_that_eliminates_everyone_left_is_shared_and_not_replayed() -> None:
    t = with_lives(start(seed=6), dict.fromkeys(PIDS, 1))
    t, _, events = play_round(t, lambda d: None)  # four draws: everybody out at once
    assert t.finished and len(t.rounds) == 1
    assert {p.place for p in t.players} == {1}
    assert {p.rating_change for p in t.players} == {0}
    assert TournamentFinished(t.finished_at or -1, None) in events
    check_invariants(t, lives_from_duels=False)


def test_r8_final_draw_shares_first_place() -> None:
    t = start(seed=7)
    t, _, _ = play_round(with_lives(t, {p: 1 for p in PIDS[2:]}), loses(*PIDS[2:]))
    # Six players out together in round 1 share 3rd place; the last two meet in a final.
    assert sorted(p.place or 0 for p in t.players if p.place) == [3] * 6
    t = with_lives(t, {"p0": 1, "p1": 1})
    t, _, _ = play_round(t, lambda d: None)
    assert t.finished and t.player("p0").place == t.player("p1").place == 1
    check_invariants(t, lives_from_duels=False)


def test_d1_competition_ranking_in_a_full_tournament() -> None:
    for seed in range(10):
        t, _ = play_out(start(seed=seed), lambda d, i=seed % 2: d.players[i])
        check_invariants(t)  # place = 1 + number of players who finished strictly better
