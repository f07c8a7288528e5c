"""D4 (the shared board as players and spectators see it) and R9 (after elimination)."""

from __future__ import annotations

import json

from core import tournament as tm
from core import views
from core.timing import Timing
from tests.core.helpers import (
    TURN,
    WORDS,
    loses,
    play_duel,
    play_round,
    start,
    with_lives,
    wrong_guess,
)


def test_d4_both_players_see_every_row_whose_turn_and_the_deadline(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    first, second = d.players
    t, _ = tm.advance(live, d.starts_at + TURN, WORDS)  # first's turn is skipped
    guess = wrong_guess(d.secret)
    t, _ = tm.guess(t, second, 1, guess, d.starts_at + TURN + 500, WORDS)
    now = d.starts_at + TURN + 600
    a = views.tournament_view(t, first, now)["duel"]
    b = views.tournament_view(t, second, now)["duel"]
    assert (
        a["rows"]
        == b["rows"]
        == [
            {"by": first, "skipped": True},
            {"by": second, "tiles": list(guess), "marks": t.round.duels[0].turns[1].marks},
        ]
    )
    assert a["to_play"] == b["to_play"] == first
    assert a["deadline"] == b["deadline"] == d.starts_at + 2 * TURN + 500
    assert (a["your_turn"], b["your_turn"]) == (True, False)
    assert "secret" not in a and "secret" not in b
    assert a["word_length"] == len(d.secret)
    json.dumps(views.tournament_view(t, first, now))


def test_d4_nobody_has_a_turn_during_the_intro(t0: tm.Tournament) -> None:
    d = t0.round.duels[0]
    view = views.tournament_view(t0, d.players[0], 0)
    assert view["phase"] == "intro" and view["phase_deadline"] == d.starts_at
    assert view["duel"]["your_turn"] is False


def test_d4_secret_is_revealed_to_everyone_when_the_duel_ends(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    t, now, _ = play_duel(live, d.id, d.players[1], d.starts_at)
    ended = t.round.duels[0]
    for viewer in (*d.players, live.round.duels[1].players[0], None):
        view = views.duel_view(ended, viewer, now)
        assert view["secret"] == list(d.secret)
        assert view["result"] == {"kind": "win", "winner": d.players[1], "at": ended.ended_at}
        assert view["to_play"] is None and view["deadline"] is None


def test_r9_spectators_do_not_see_a_running_duels_secret(live: tm.Tournament) -> None:
    spectator = live.round.duels[1].players[0]
    d = live.round.duels[0]
    view = views.duel_view(d, spectator, d.starts_at)
    assert "secret" not in view and view["your_turn"] is False
    summaries = views.tournament_view(live, spectator, d.starts_at)["duels"]
    assert all("secret" not in s for s in summaries) and len(summaries) == 4


def test_r9_eliminated_player_sees_place_and_rating_change_and_may_watch(
    live: tm.Tournament,
) -> None:
    out = live.round.duels[0].players[0]
    t = with_lives(live, {out: 1})
    t, now, _ = play_duel(t, live.round.duels[0].id, live.round.duels[0].players[1], 0)
    me = next(p for p in views.tournament_view(t, out, now)["players"] if p["id"] == out)
    # Out at once; the place (and so the rating change) is fixed when the round ends (R8).
    assert (me["lives"], me["status"], me["place"]) == (0, "out", None)
    t, now, _ = play_round(t, loses(out), now)
    view = views.tournament_view(t, out, now)
    me = next(p for p in view["players"] if p["id"] == out)
    assert (me["status"], me["place"], me["rating_change"]) == ("out", 8, -25)
    assert view["duel"] is None  # no duel of their own, but every duel is listed to watch
    assert len(view["duels"]) == 3 and view["bye"] is not None
    watched = views.duel_view(t.round.duels[0], out, now)
    assert "secret" not in watched and watched["your_turn"] is False


def test_r20_d9_a_player_who_left_says_why_away_or_by_choice() -> None:
    """`left_reason`: "away" for a player removed when the 60 s window ran out (D9), "left" for
    one who chose to (R20), null for everyone else; a client tells them apart on coming back."""
    window = 60_000
    t = start(seed=3, timing=Timing(reconnect_ms=window))
    quitter, away = t.players[0].id, t.players[1].id
    others = [p.id for p in t.players if p.id not in (quitter, away)]
    t, _ = tm.leave(t, quitter, 5_000, WORDS)
    for p in others:  # everyone else keeps in touch; `away` is never heard from again
        t, _ = tm.contact(t, p, window - 1_000, WORDS)
    t, _ = tm.advance(t, window + 1, WORDS)
    lines = {p["id"]: p for p in views.tournament_view(t, away, window + 1)["players"]}
    assert (lines[quitter]["status"], lines[quitter]["left_reason"]) == ("left", "left")
    assert (lines[away]["status"], lines[away]["left_reason"]) == ("left", "away")
    assert t.player(away).left_at == window  # removed at its last contact (0) + the window
    assert all(lines[p]["left_reason"] is None for p in others)
