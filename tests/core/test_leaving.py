"""R20, D7, D8 (leaving), R21, D9 (disconnects) and D14 (leaving once out)."""

from __future__ import annotations

from typing import Any

from core import serialization
from core import tournament as tm
from core.events import DuelEnded, PlaceFixed, PlayerLeft
from core.timing import Timing
from tests.core.helpers import (
    PIDS,
    RECONNECT,
    TURN,
    WORDS,
    check_invariants,
    duel_of,
    loses,
    play_duel,
    play_out,
    play_round,
    start,
    with_lives,
)


def places(t: tm.Tournament) -> dict[str, int | None]:
    return {p.id: p.place for p in t.players}


def test_r20_leaving_loses_the_current_duel_at_once(live: tm.Tournament) -> None:
    d = live.round.duels[0]
    leaver, other = d.players
    now = d.starts_at + 5_000
    t, events = tm.leave(live, leaver, now, WORDS)
    assert events == [PlayerLeft(leaver, now), DuelEnded(d.id, other, now, True)]
    ended = duel_of(t, other)
    assert ended.winner == other and ended.forfeit and ended.ended_at == now
    assert t.player(other).lives == 3  # D8: the opponent wins without losing a life
    p = t.player(leaver)
    assert (p.lives, p.left_at, p.status) == (0, now, "left")
    assert p.place is None  # fixed when the round ends, with the round's other eliminations
    t, _, events = play_round(t, lambda d: d.players[0])
    assert t.player(leaver).place == 8 and t.player(leaver).out_round == 1
    assert PlaceFixed(leaver, 8, -25, 975) in events
    check_invariants(t)


def test_r20_d8_leaver_is_placed_below_the_rounds_other_eliminations(live: tm.Tournament) -> None:
    loser = live.round.duels[1].players[0]
    leaver = live.round.duels[0].players[0]
    t = with_lives(live, {loser: 1})
    t, _ = tm.leave(t, leaver, t.round.starts_at + 1, WORDS)
    t, _, _ = play_round(t, loses(loser))
    assert (t.player(loser).place, t.player(leaver).place) == (7, 8)
    assert t.player(loser).rating_change == -18  # 7th of 8, as in R17
    check_invariants(t, lives_from_duels=False)


def test_d8_several_leavers_in_one_round_share_a_place(live: tm.Tournament) -> None:
    loser = live.round.duels[2].players[0]
    leavers = [live.round.duels[0].players[0], live.round.duels[1].players[1]]
    t = with_lives(live, {loser: 1})
    for i, p in enumerate(leavers):
        t, _ = tm.leave(t, p, t.round.starts_at + i, WORDS)
    t, _, _ = play_round(t, loses(loser))
    assert places(t)[loser] == 6
    assert [places(t)[p] for p in leavers] == [7, 7]
    changes = {t.player(p).rating_change for p in leavers}
    assert len(changes) == 1  # shared place, same ratings: the same change
    check_invariants(t, lives_from_duels=False)


def test_d8_leaver_with_a_bye_is_eliminated_in_the_current_round(live: tm.Tournament) -> None:
    out = live.round.duels[0].players[0]
    t, _, _ = play_round(with_lives(live, {out: 1}), loses(out))
    bye = t.round.bye
    assert bye is not None
    duels_before = t.round.duels
    t, events = tm.leave(t, bye, t.round.starts_at + 3_000, WORDS)
    assert events == [PlayerLeft(bye, t.round.starts_at + 3_000)]
    assert t.round.duels == duels_before  # nobody else's duel is touched
    t, _, _ = play_round(t, lambda d: d.players[0])
    assert t.player(bye).out_round == 2 and t.player(bye).place == 7
    assert bye not in {p for d in t.round.duels for p in d.players}
    check_invariants(t, lives_from_duels=False)


def test_d8_leaver_whose_duel_is_over_is_eliminated_in_the_current_round(
    live: tm.Tournament,
) -> None:
    d = live.round.duels[0]
    winner, loser = d.players
    t, now, _ = play_duel(live, d.id, winner, d.starts_at)
    t, events = tm.leave(t, winner, now, WORDS)
    assert events == [PlayerLeft(winner, now)]
    done = duel_of(t, winner)
    assert done.winner == winner and not done.forfeit  # the finished duel stands
    assert t.player(loser).lives == 2
    t, _, _ = play_round(t, lambda d: d.players[0])
    assert t.player(winner).out_round == 1 and t.player(winner).place == 8
    check_invariants(t)


def test_d7_leaving_during_the_first_intro_is_leaving_after_the_start(t0: tm.Tournament) -> None:
    d = t0.round.duels[0]
    leaver, other = d.players
    t, events = tm.leave(t0, leaver, 1_000, WORDS)
    assert t.phase(1_000) == "intro"
    assert DuelEnded(d.id, other, 1_000, True) in events
    t, _, _ = play_round(t, lambda d: d.players[0])
    assert t.player(leaver).place == 8 and t.player(other).lives == 3
    check_invariants(t)


def test_d7_leaving_during_a_later_intro_counts_in_that_round(live: tm.Tournament) -> None:
    t, _, _ = play_round(live, lambda d: d.players[0])
    assert t.phase(t.round.intro_at) == "intro"
    leaver = t.round.duels[0].players[1]
    t, _ = tm.leave(t, leaver, t.round.intro_at + 100, WORDS)
    t, _, _ = play_round(t, lambda d: d.players[0])
    assert t.player(leaver).out_round == 2 and t.player(leaver).place == 8
    check_invariants(t)


# ---------------------------------------------------------------------------- R21, D9


def _keep_alive(t: tm.Tournament, now: int, but: str) -> tm.Tournament:
    for pid in PIDS:
        if pid != but:
            t, _ = tm.contact(t, pid, now, WORDS)
    return t


def _disconnecting() -> tuple[tm.Tournament, str, str]:
    """Real timers; everyone but the first player of duel 1 keeps in touch until 50 s."""
    t = start(seed=11, timing=Timing())
    d = t.round.duels[0]
    gone, other = d.players
    for now in (20_000, 50_000):
        t = _keep_alive(t, now, gone)
    return t, gone, other


def test_r21_turns_keep_expiring_while_disconnected_then_the_player_has_left() -> None:
    assert RECONNECT == 60_000
    t, gone, other = _disconnecting()
    start_at = t.round.starts_at
    t, _ = tm.advance(t, RECONNECT - 1, WORDS)
    d = duel_of(t, gone)
    assert [(x.player, x.skipped) for x in d.turns] == [(gone, True)]
    assert d.turns[0].at == start_at + TURN
    assert t.player(gone).left_at is None and d.ended_at is None
    t, events = tm.advance(t, RECONNECT, WORDS)
    assert PlayerLeft(gone, RECONNECT) in events
    assert DuelEnded(d.id, other, RECONNECT, True) in events
    assert t.player(gone).left_at == RECONNECT and t.player(other).lives == 3


def _normalised(t: tm.Tournament, player: str, last_contact: int) -> dict[str, Any]:
    data = serialization.to_dict(t)
    for row in data["p"]:
        if row[0] == player:
            row[3] = last_contact - t.created_at
    return data


def test_d9_a_disconnect_is_exactly_leaving_at_last_contact_plus_60_seconds() -> None:
    t, gone, _ = _disconnecting()
    by_timeout, timeout_events = tm.advance(t, RECONNECT, WORDS)
    # The same player leaves by hand at that moment (having been heard from a bit later).
    heard, _ = tm.contact(t, gone, 1_000, WORDS)
    by_hand, hand_events = tm.leave(heard, gone, RECONNECT, WORDS)
    assert hand_events == timeout_events
    assert _normalised(by_hand, gone, 0) == _normalised(by_timeout, gone, 0)
    # And likewise much later, once the clock has decided more (the others, last heard from at
    # 59.999 s, drop out a minute after that).
    much_later = RECONNECT + 10 * TURN
    t = _keep_alive(t, RECONNECT - 1, gone)
    a, _ = tm.advance(t, much_later, WORDS)
    b, _ = tm.leave(tm.contact(t, gone, 1_000, WORDS)[0], gone, RECONNECT, WORDS)
    b, _ = tm.advance(b, much_later, WORDS)
    assert _normalised(a, gone, 0) == _normalised(b, gone, 0)


def test_d9_contact_extends_the_window() -> None:
    t, gone, _ = _disconnecting()
    t, _ = tm.contact(t, gone, 50_000, WORDS)
    t = _keep_alive(t, 100_000, gone)
    t, _ = tm.advance(t, 109_999, WORDS)
    assert t.player(gone).left_at is None
    t, _ = tm.advance(t, 110_000, WORDS)
    assert t.player(gone).left_at == 110_000


def test_d9_coming_back_early_keeps_skipped_turns_skipped() -> None:
    t, gone, _ = _disconnecting()
    t, _ = tm.advance(t, 40_000, WORDS)
    skipped = duel_of(t, gone).turns
    assert skipped and skipped[0].skipped
    back, events = tm.contact(t, gone, 40_001, WORDS)
    assert events == [] and duel_of(back, gone).turns == skipped
    assert back.player(gone).last_contact == 40_001


def test_d9_coming_back_after_the_window_changes_nothing() -> None:
    t, gone, _ = _disconnecting()
    late, _ = tm.contact(t, gone, 61_000, WORDS)
    assert late == tm.advance(t, 61_000, WORDS)[0]
    assert late.player(gone).left_at == RECONNECT


def test_d9_next_deadline_includes_the_reconnect_window() -> None:
    t, _gone, _ = _disconnecting()
    t, _ = tm.advance(t, 36_001, WORDS)  # the first turn was skipped at 36 s
    assert t.next_deadline() == RECONNECT  # before the second turn's deadline at 66 s


# ---------------------------------------------------------------------------- D14


def test_d14_leaving_after_elimination_changes_nothing(live: tm.Tournament) -> None:
    out = live.round.duels[0].players[0]
    t, _, _ = play_round(with_lives(live, {out: 1}), loses(out))
    now = t.round.starts_at + 2_000
    advanced, _ = tm.advance(t, now, WORDS)
    left, events = tm.leave(t, out, now, WORDS)
    assert left == advanced and not any(isinstance(e, PlayerLeft) for e in events)
    p = left.player(out)
    assert (p.left_at, p.place, p.rating_change, p.status) == (None, 8, -25, "out")
    assert tm.contact(t, out, now, WORDS)[0] == advanced  # nor does being heard from


def test_d14_leaving_a_finished_tournament_changes_nothing() -> None:
    t, _ = play_out(start(seed=8))
    end = t.finished_at or 0
    for pid in PIDS:
        assert tm.leave(t, pid, end + 1, WORDS) == (t, [])


def _keep_alive_all_but(t: tm.Tournament, now: int, gone: set[str]) -> tm.Tournament:
    for pid in PIDS:
        if pid not in gone:
            t, _ = tm.contact(t, pid, now, WORDS)
    return t


def test_d8_d9_players_dropping_out_at_the_same_moment_share_a_place() -> None:
    t = start(seed=23, timing=Timing())
    gone = {t.round.duels[0].players[0], t.round.duels[1].players[1]}
    for now in (20_000, 50_000):
        t = _keep_alive_all_but(t, now, gone)
    t, _ = tm.advance(t, RECONNECT, WORDS)  # both were last heard from at 0
    assert {p.id for p in t.players if p.left_at == RECONNECT} == gone
    t, _, _ = play_round(t, lambda d: d.players[0], now=RECONNECT)
    assert [t.player(p).place for p in gone] == [7, 7]
    check_invariants(t)


def test_d8_d9_a_window_closing_as_the_round_ends_leaves_in_that_round() -> None:
    t = start(seed=24, timing=Timing())
    last, *others = t.round.duels
    x = others[0].players[0]
    for d in others:  # three duels end at once; x wins theirs
        t, _ = tm.guess(t, d.players[0], 0, d.secret, d.starts_at, WORDS)
    end = last.starts_at + 12 * TURN  # the last duel: twelve skips, a draw
    for now in [*range(40_000, end - RECONNECT, 40_000), end - RECONNECT]:
        t = _keep_alive_all_but(t, now, set())  # x is last heard from at end - 60 s
    t = _keep_alive_all_but(t, end - 1, {x})
    t, _ = tm.advance(t, end, WORDS)
    assert t.rounds[0].ended_at == end and t.player(x).left_at == end
    assert t.player(x).out_round == 1 and t.player(x).place == 8
    assert x not in {p for d in t.round.duels for p in d.players} and t.round.bye != x
    check_invariants(t)
