"""R5, R10–R12, R14: duels on a shared board, their clock and their results."""

from __future__ import annotations

import pytest

from core import duel as dl
from core import errors
from core import tournament as tm
from core.events import DuelEnded
from core.timing import MAX_ROWS, TURNS_PER_PLAYER
from tests.core.helpers import (
    TURN,
    WORDS,
    check_invariants,
    duel_of,
    play_duel,
    start,
    wrong_guess,
)


def lives(t: tm.Tournament) -> dict[str, int]:
    return {p.id: p.lives for p in t.players}


def test_r10_board_has_at_most_12_rows_six_turns_each(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    t, _, _ = play_duel(live, d.id, None, d.starts_at)
    d = next(x for x in t.round.duels if x.id == d.id)
    assert MAX_ROWS == 12 and TURNS_PER_PLAYER == 6
    assert len(d.turns) == 12
    assert d.turns_used(d.players[0]) == d.turns_used(d.players[1]) == 6
    with pytest.raises(errors.DuelOver):
        tm.guess(t, d.to_play, 12, wrong_guess(d.secret), d.turns[-1].at + 1, WORDS)


def test_r10_every_turn_lasts_30_seconds(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    assert TURN == 30_000
    assert d.deadline == d.starts_at + 30_000
    t, _ = tm.guess(live, d.to_play, 0, wrong_guess(d.secret), d.starts_at + 12_345, WORDS)
    assert duel_of(t, d.players[0]).deadline == d.starts_at + 12_345 + 30_000


def test_r10_turns_alternate_from_a_randomly_drawn_first_player() -> None:
    first_is_lower = 0
    total = 0
    for seed in range(100):
        for d in start(seed).round.duels:
            first_is_lower += d.players[0] < d.players[1]
            total += 1
    assert 0.4 < first_is_lower / total < 0.6


def test_r10_only_the_player_to_play_may_guess(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    first, second = d.players
    with pytest.raises(errors.NotYourTurn) as e:
        tm.guess(live, second, 0, wrong_guess(d.secret), d.starts_at, WORDS)
    assert e.value.to_play == first
    t, _ = tm.guess(live, first, 0, wrong_guess(d.secret), d.starts_at, WORDS)
    assert duel_of(t, first).to_play == second


def test_r11_timeout_skips_the_turn_and_passes_it_on(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    first, second = d.players
    t, _ = tm.advance(live, d.starts_at + TURN - 1, WORDS)
    assert duel_of(t, first).turns == ()
    t, _ = tm.advance(live, d.starts_at + TURN, WORDS)
    skipped = duel_of(t, first)
    assert [(x.player, x.skipped, x.at) for x in skipped.turns] == [
        (first, True, d.starts_at + TURN)
    ]
    assert skipped.to_play == second
    assert skipped.deadline == d.starts_at + 2 * TURN
    # A guess exactly at the deadline is too late: its row is taken by the skip, and the turn is
    # already the opponent's.
    with pytest.raises(errors.StaleRow):
        tm.guess(live, first, 0, wrong_guess(d.secret), d.starts_at + TURN, WORDS)
    with pytest.raises(errors.NotYourTurn):
        tm.guess(live, first, 1, wrong_guess(d.secret), d.starts_at + TURN, WORDS)


def test_r11_twelve_skips_make_a_draw_and_skipping_alone_never_loses(
    live: tm.Tournament,
) -> None:
    end = live.round.starts_at + 12 * TURN
    t, events = tm.advance(live, end - 1, WORDS)
    assert all(len(d.turns) == 11 and d.ended_at is None for d in t.round.duels)
    t, events = tm.advance(live, end, WORDS)
    ended = [e for e in events if isinstance(e, DuelEnded)]
    assert len(ended) == 4 and all(e.winner is None and e.at == end for e in ended)
    assert t.rounds[0].ended_at == end
    assert all(len(d.turns) == 12 and d.draw for d in t.rounds[0].duels)
    assert set(lives(t).values()) == {2}  # R14: a draw costs both players a life
    check_invariants(t)


def test_r11_a_player_who_always_skips_draws_against_wrong_guesses(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    guesser = d.players[1]
    t = live
    for i in range(6):
        skip_at = duel_of(t, guesser).deadline  # the first player times out, the guesser plays
        assert skip_at is not None
        t, _ = tm.guess(t, guesser, 2 * i + 1, wrong_guess(d.secret, i), skip_at + 5, WORDS)
    d = next(x for x in t.rounds[0].duels if x.id == d.id)
    assert d.draw
    assert [x.skipped for x in d.turns] == [True, False] * 6


def test_r12_first_correct_guess_wins(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    first, second = d.players
    now = d.starts_at + 1000
    t, _ = tm.guess(live, first, 0, wrong_guess(d.secret), now, WORDS)
    t, events = tm.guess(t, second, 1, d.secret, now + 1000, WORDS)
    won = duel_of(t, first)
    assert won.winner == second and won.ended_at == now + 1000 and not won.forfeit
    assert DuelEnded(d.id, second, now + 1000, False) in events
    with pytest.raises(errors.DuelOver):
        tm.guess(t, first, 2, d.secret, now + 2000, WORDS)
    assert won.to_play == first  # irrelevant once over: the board is closed
    assert won.deadline is None


def test_r5_win_costs_nothing_loss_costs_one_life(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    winner, loser = d.players
    t, _, _ = play_duel(live, d.id, winner, d.starts_at)
    assert lives(t)[winner] == 3 and lives(t)[loser] == 2
    assert all(lives(t)[p] == 3 for p in lives(t) if p not in d.players)


def test_r5_r14_draw_costs_both_players_a_life(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    t, _, events = play_duel(live, d.id, None, d.starts_at)
    assert lives(t)[d.players[0]] == lives(t)[d.players[1]] == 2
    assert [e for e in events if isinstance(e, DuelEnded)] == [
        DuelEnded(d.id, None, d.starts_at + 11_000, False)
    ]


def test_r14_full_board_of_wrong_guesses_is_a_draw_in_core_duel() -> None:
    d = dl.Duel("d", ("a", "b"), tuple("abcd"), 0, TURN)
    for i in range(12):
        assert d.ended_at is None
        d = dl.play(d, d.to_play, tuple("wxyz"), i * 10)
    assert d.draw and d.ended_at == 110 and d.winner is None
    with pytest.raises(errors.DuelOver):
        dl.play(d, d.to_play, tuple("abcd"), 200)


def test_r14_solving_on_the_twelfth_row_wins() -> None:
    d = dl.Duel("d", ("a", "b"), tuple("abcd"), 0, TURN)
    d = dl.expire(d, 11 * TURN)
    assert len(d.turns) == 11 and d.ended_at is None
    d = dl.play(d, "b", tuple("abcd"), 11 * TURN + 1)
    assert d.winner == "b" and not d.draw
