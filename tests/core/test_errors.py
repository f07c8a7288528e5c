"""Precise errors for refused commands, and R13: an invalid guess uses nothing."""

from __future__ import annotations

import pytest

from core import errors
from core import tournament as tm
from tests.core.helpers import (
    UNLISTED,
    WORDS,
    duel_of,
    loses,
    play_duel,
    play_out,
    play_round,
    start,
    to_json,
    with_lives,
    wrong_guess,
)


def test_r13_wrong_length_is_refused_and_the_turn_keeps_running(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    now = d.starts_at + 10_000
    short = wrong_guess(d.secret)[:-1]
    with pytest.raises(errors.WrongLength) as e:
        tm.guess(live, d.to_play, 0, short, now, WORDS)
    assert (e.value.expected, e.value.given) == (len(d.secret), len(d.secret) - 1)
    assert e.value.code == "wrong_length" and isinstance(e.value, errors.InvalidGuess)
    after, _ = tm.advance(live, now, WORDS)
    assert to_json(after) == to_json(live)  # nothing happened: no row, same turn, same clock
    assert duel_of(after, d.to_play).deadline == d.starts_at + 30_000
    # The same player may still play a valid guess on the same row, in the same turn.
    t, _ = tm.guess(live, d.to_play, 0, wrong_guess(d.secret), now + 1, WORDS)
    assert len(duel_of(t, d.to_play).turns) == 1


def test_r13_word_not_in_list_is_refused_and_the_turn_keeps_running(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    now = d.starts_at + 29_999
    with pytest.raises(errors.NotInWordList) as e:
        tm.guess(live, d.to_play, 0, UNLISTED[len(d.secret)], now, WORDS)
    assert e.value.word == UNLISTED[len(d.secret)]
    after, _ = tm.advance(live, now, WORDS)
    assert after == live
    # The clock was not reset: the turn still times out at its original deadline.
    t, _ = tm.advance(live, d.starts_at + 30_000, WORDS)
    assert duel_of(t, d.to_play).turns[0].skipped


def test_not_your_turn(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    with pytest.raises(errors.NotYourTurn) as e:
        tm.guess(live, d.players[1], 0, wrong_guess(d.secret), d.starts_at, WORDS)
    assert (e.value.player_id, e.value.to_play) == (d.players[1], d.players[0])


def test_intro_in_progress(t0: tm.Tournament) -> None:
    d = t0.round.duels[0]
    with pytest.raises(errors.IntroInProgress) as e:
        tm.guess(t0, d.to_play, 0, wrong_guess(d.secret), d.starts_at - 1, WORDS)
    assert e.value.starts_at == d.starts_at == 6_000


def test_duel_over(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    t, now, _ = play_duel(live, d.id, d.players[0], d.starts_at)
    with pytest.raises(errors.DuelOver) as e:
        tm.guess(t, d.players[1], 1, wrong_guess(d.secret), now, WORDS)
    assert e.value.duel_id == d.id


def test_stale_row_and_idempotent_retry(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    first, second = d.players
    guess = wrong_guess(d.secret)
    t, _ = tm.guess(live, first, 0, guess, d.starts_at + 1000, WORDS)
    # A retry of the very same guess on the same row answers with the same state, no error.
    again, events = tm.guess(t, first, 0, guess, d.starts_at + 2000, WORDS)
    assert again == t and events == []
    # A different word on a played row, or a row ahead of the board, is stale.
    with pytest.raises(errors.StaleRow) as e:
        tm.guess(t, first, 0, wrong_guess(d.secret, 1), d.starts_at + 2000, WORDS)
    assert (e.value.expected, e.value.given) == (1, 0)
    with pytest.raises(errors.StaleRow):
        tm.guess(t, second, 0, guess, d.starts_at + 2000, WORDS)  # row 0 is not theirs
    with pytest.raises(errors.StaleRow):
        tm.guess(t, second, 2, guess, d.starts_at + 2000, WORDS)


def test_retry_of_the_guess_that_ended_the_round_is_idempotent(live: tm.Tournament) -> None:
    """With the duel named, a retry that arrives once the next round began gets the same
    answer; another word on that finished duel is refused."""
    for d in live.round.duels[1:]:
        live, _, _ = play_duel(live, d.id, d.players[0], d.starts_at)
    d = live.round.duels[0]
    t, _ = tm.guess(live, d.players[0], 0, d.secret, d.starts_at + 20_000, WORDS, d.id)
    assert t.round.number == 2
    again, _ = tm.guess(t, d.players[0], 0, d.secret, d.starts_at + 20_001, WORDS, d.id)
    assert again == t
    with pytest.raises(errors.DuelOver):
        tm.guess(t, d.players[0], 1, wrong_guess(d.secret), d.starts_at + 20_002, WORDS, d.id)


def test_tournament_over() -> None:
    t, _ = play_out(start(seed=3))
    with pytest.raises(errors.TournamentOver):
        tm.guess(t, "p0", 0, ("a",) * 4, t.finished_at or 0, WORDS)


def test_already_out(live: tm.Tournament) -> None:
    loser = live.round.duels[0].players[1]
    t, _, _ = play_round(with_lives(live, {loser: 1}), loses(loser))
    with pytest.raises(errors.AlreadyOut) as e:
        tm.guess(t, loser, 0, ("a",) * 4, t.round.starts_at, WORDS)
    assert e.value.player_id == loser


def test_not_in_duel_for_the_player_with_a_bye(live: tm.Tournament) -> None:
    loser = live.round.duels[0].players[1]
    t, _, _ = play_round(with_lives(live, {loser: 1}), loses(loser))
    bye = t.round.bye
    assert bye is not None and t.round.duel_of(bye) is None
    with pytest.raises(errors.NotInDuel) as e:
        tm.guess(t, bye, 0, ("a",) * 4, t.round.starts_at, WORDS)
    assert e.value.player_id == bye


def test_unknown_player(live: tm.Tournament) -> None:
    with pytest.raises(errors.UnknownPlayer):
        tm.guess(live, "nobody", 0, ("a",) * 4, live.round.starts_at, WORDS)


def test_error_codes_are_distinct() -> None:
    classes = [
        c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, errors.GameError)
    ]
    codes = [c.code for c in classes]
    assert len(codes) == len(set(codes)) and len(codes) > 15


def test_d10_a_guess_dated_before_the_current_turn_is_not_recorded_in_the_past(
    live: tm.Tournament,
) -> None:
    d = live.round.duels[0]
    t, _ = tm.advance(live, d.starts_at + 30_000, WORDS)  # the first turn is skipped at 36 s
    second = d.players[1]
    try:
        t, _ = tm.guess(t, second, 1, wrong_guess(d.secret), d.starts_at + 1_000, WORDS)
    except errors.GameError:
        return  # refusing it is fine too
    turns = duel_of(t, second).turns
    assert turns[1].at >= turns[0].at


# ---------------------------------------------------------------------------- retries


def test_r7_a_retry_of_the_guess_that_ended_the_tournament_gets_the_same_answer() -> None:
    t, _ = play_out(start(seed=3))
    assert t.finished_at is not None
    last = max(t.round.duels, key=lambda d: d.ended_at or 0)
    row = len(last.turns) - 1
    turn = last.turns[row]
    assert turn.word is not None and turn.at == t.finished_at  # this guess ended it
    for duel_id in (None, last.id):
        again, events = tm.guess(t, turn.player, row, turn.word, t.finished_at + 9, WORDS, duel_id)
        assert (again, events) == (t, [])
    with pytest.raises(errors.TournamentOver):  # another word on that row is no retry
        tm.guess(t, turn.player, row, wrong_guess(last.secret, 3), t.finished_at + 9, WORDS)


def test_r5_a_retry_of_the_guess_that_knocked_the_guesser_out_gets_the_same_answer(
    live: tm.Tournament,
) -> None:
    d = live.round.duels[0]
    second = d.players[1]  # plays the 12th row, which draws the duel (R14)
    t = with_lives(live, {second: 1})
    now = d.starts_at
    for row in range(12):
        duel = duel_of(t, second)
        t, _ = tm.guess(t, duel.to_play, row, wrong_guess(d.secret, row), now, WORDS)
        now += 1000
    assert t.player(second).lives == 0 and not t.finished
    last = duel_of(t, second).turns[11]
    assert last.player == second and last.word is not None
    for duel_id in (None, d.id):
        again, events = tm.guess(t, second, 11, last.word, now, WORDS, duel_id)
        assert (again, events) == (t, [])
    with pytest.raises(errors.AlreadyOut):
        tm.guess(t, second, 12, wrong_guess(d.secret, 12), now, WORDS)
