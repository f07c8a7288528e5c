"""The whole story of a tournament as a viewer sees it: every live duel of the round at a
glance (R9, D4), provisional places and rating changes (R9, D1, R8), the history of the rounds
played (D2, D4), and the final board of the duel a guess ended."""

from __future__ import annotations

import json

from core import standings, views
from core import tournament as tm
from tests.core.helpers import (
    PIDS,
    TURN,
    WORDS,
    loses,
    lower_index_wins,
    play_duel,
    play_out,
    play_round,
    start,
    with_lives,
    wrong_guess,
)


def _me(view: dict, pid: str) -> dict:  # type: ignore[type-arg]
    return next(p for p in view["players"] if p["id"] == pid)


# ---------------------------------------------------------------------------- live duels


def test_r9_d4_every_live_duel_at_a_glance_without_its_secret(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    first, second = d.players
    t, _ = tm.advance(live, d.starts_at + TURN, WORDS)  # first's turn is skipped (R11)
    guess = wrong_guess(d.secret)
    t, _ = tm.guess(t, second, 1, guess, d.starts_at + TURN + 500, WORDS)
    now = d.starts_at + TURN + 600
    spectator = t.round.duels[1].players[0]
    view = views.tournament_view(t, spectator, now)
    glance = view["duels"][0]
    marks = t.round.duels[0].turns[1].marks
    assert glance["board"] == [None, [list(guess), marks]]  # row i by players[i % 2]
    assert glance["rows"] == 2 and glance["players"] == [first, second]
    assert glance["to_play"] == first and glance["deadline"] == d.starts_at + 2 * TURN + 500
    assert glance["result"] is None and "secret" not in glance
    assert len(view["duels"]) == 4 and all("secret" not in g for g in view["duels"])
    text = json.dumps(view)
    for duel in t.round.duels:  # D4: in no form, anywhere in the state
        assert json.dumps(list(duel.secret)) not in text


def test_d4_a_finished_duel_of_the_round_shows_its_final_board_and_secret(
    live: tm.Tournament,
) -> None:
    d = live.round.duels[0]
    t, now, _ = play_duel(live, d.id, d.players[1], d.starts_at)
    glance = views.tournament_view(t, live.round.duels[1].players[0], now)["duels"][0]
    assert glance["secret"] == list(d.secret)
    assert glance["board"][-1] == [list(d.secret), "G" * len(d.secret)]
    assert glance["result"]["winner"] == d.players[1]
    assert glance["to_play"] is None and glance["deadline"] is None


# ---------------------------------------------------------------------------- R9, D1: provisional


def test_r9_d1_an_eliminated_player_sees_a_provisional_place_and_rating_change_at_once(
    live: tm.Tournament,
) -> None:
    out = live.round.duels[0].players[0]
    t = with_lives(live, {out: 1})
    t, now, _ = play_duel(t, live.round.duels[0].id, live.round.duels[0].players[1], 0)
    me = _me(views.tournament_view(t, out, now), out)
    assert (me["lives"], me["status"], me["place"], me["rating_change"]) == (0, "out", None, None)
    assert me["out_round"] == 1 and me["rating"] == 1000
    # Alone out so far: 8th if the round ended now (D1), −25 in an equal lobby (R17).
    assert me["provisional"] == {"place": 8, "rating_change": -25}
    # Nobody else goes out this round: the fixed place is the provisional one.
    t, now, _ = play_round(t, loses(out), now)
    me = _me(views.tournament_view(t, out, now), out)
    assert (me["place"], me["rating_change"], me["provisional"]) == (8, -25, None)
    assert me["out_round"] == 1


def test_d1_r8_a_provisional_place_only_gets_better(live: tm.Tournament) -> None:
    """Others still playing the round can only join the place (sharing it), never pass it."""
    d0, d1 = live.round.duels[0], live.round.duels[1]
    first, second = d0.players[0], d1.players[0]
    t = with_lives(live, {first: 1, second: 1})
    t, now, _ = play_duel(t, d0.id, d0.players[1], 0)
    assert _me(views.tournament_view(t, first, now), first)["provisional"]["place"] == 8
    t, now, _ = play_duel(t, d1.id, d1.players[1], now)
    both = views.tournament_view(t, first, now)
    # Two out in round 1 share 7th (D1: nobody is 8th); the change improves with the place.
    assert _me(both, first)["provisional"] == {"place": 7, "rating_change": -21}
    assert _me(both, second)["provisional"] == {"place": 7, "rating_change": -21}
    t, now, _ = play_round(t, loses(first, second), now)
    fixed = views.tournament_view(t, first, now)
    assert (_me(fixed, first)["place"], _me(fixed, first)["rating_change"]) == (7, -21)


def test_r20_d8_a_leavers_provisional_place_is_below_the_rounds_other_eliminations(
    live: tm.Tournament,
) -> None:
    d0 = live.round.duels[0]
    loser, leaver = d0.players[0], live.round.duels[1].players[0]
    t = with_lives(live, {loser: 1})
    t, now, _ = play_duel(t, d0.id, d0.players[1], 0)
    t, _ = tm.leave(t, leaver, now, WORDS)
    provisional = standings.provisional(t.players)
    assert provisional == {loser: (7, -18), leaver: (8, -25)}


def test_d1_provisional_places_are_what_the_round_end_fixes_or_better() -> None:
    """Across whole tournaments, after every duel: a provisional place never gets worse while
    the round goes on, and the round's end fixes it there or better (D1, R8)."""
    seen = 0
    for seed in range(6):
        t = start(seed=seed, ratings=[1000 + 15 * i for i in range(8)])
        now = t.round.starts_at
        while not t.finished:
            number = t.round.number
            last: dict[str, tuple[int, int]] = {}
            for duel in t.round.duels[:-1]:
                t, now, _ = play_duel(t, duel.id, lower_index_wins(duel), now)
                for pid, (place, change) in standings.provisional(t.players).items():
                    if pid in last:
                        assert place <= last[pid][0] and change >= last[pid][1]
                    last[pid] = (place, change)
            t, now, _ = play_round(t, lower_index_wins, now)
            assert t.finished or t.round.number == number + 1
            for pid, (place, change) in last.items():
                fixed = t.player(pid)
                assert fixed.place is not None and fixed.place <= place
                assert fixed.rating_change is not None and fixed.rating_change >= change
                seen += 1
    assert seen >= 10  # the property was exercised


# ---------------------------------------------------------------------------- history


def test_d2_d4_history_holds_every_round_played_with_final_boards_and_secrets(
    t0: tm.Tournament,
) -> None:
    assert views.history_view(t0) == {"id": t0.id, "rounds": []}
    t, _ = play_out(t0)
    history = views.history_view(t)
    assert [r["number"] for r in history["rounds"]] == [r.number for r in t.rounds]
    assert views.closed_rounds(t) == len(t.rounds)
    for shown, rnd in zip(history["rounds"], t.rounds, strict=True):
        assert shown["bye"] == rnd.bye and shown["ended_at"] == rnd.ended_at
        assert [d["players"] for d in shown["duels"]] == [list(d.players) for d in rnd.duels]
        for d_shown, duel in zip(shown["duels"], rnd.duels, strict=True):
            assert d_shown["secret"] == list(duel.secret)
            assert d_shown["board"] == views.board(duel.turns)
            assert d_shown["result"]["winner"] == duel.winner
        out = {p.id for p in t.players if p.lives == 0 and p.out_round == rnd.number}
        assert set(shown["out"]) == out
    assert sum(len(r["out"]) for r in history["rounds"]) == 7  # everyone but the winner
    json.dumps(history)


def test_d4_history_leaves_out_the_round_being_played(live: tm.Tournament) -> None:
    t, now, _ = play_round(live, lower_index_wins)
    history = views.history_view(t)
    assert [r["number"] for r in history["rounds"]] == [1]
    text = json.dumps(history)
    for duel in t.round.duels:
        assert json.dumps(list(duel.secret)) not in text
    assert views.tournament_view(t, PIDS[0], now)["history_rounds"] == 1


# ---------------------------------------------------------------------------- ended duel


def test_d4_the_guess_that_ends_a_round_shows_its_duels_final_board(live: tm.Tournament) -> None:
    t, now = live, live.round.starts_at
    for duel in live.round.duels[1:]:
        t, now, _ = play_duel(t, duel.id, duel.players[0], now)
    last = t.round.duels[0]
    winner = last.to_play
    row = len(last.turns)
    assert views.ended_by(t, winner, row) is None  # not played yet
    t, _ = tm.guess(t, winner, row, last.secret, now + 1000, WORDS)
    assert t.round.number == 2  # the guess ended the round: the state shows the next one
    ended = views.ended_by(t, winner, row)
    assert ended is not None and ended["id"] == last.id
    assert ended["secret"] == list(last.secret) and ended["result"]["winner"] == winner
    assert views.ended_by(t, winner, row, last.id) == ended
    assert views.ended_by(t, last.opponent(winner), row) is None  # not their guess


def test_a_guess_that_does_not_end_its_duel_shows_no_final_board(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    t, _ = tm.guess(live, d.to_play, 0, wrong_guess(d.secret), d.starts_at + 100, WORDS)
    assert views.ended_by(t, d.players[0], 0) is None
