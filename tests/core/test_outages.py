"""R11, R21, D9, D10: a storage outage is a pause. Taken into account once, it gives every timer
that was running when it began the time it had left; a tournament nobody was playing is left
as it was."""

from __future__ import annotations

from core import serialization
from core import tournament as tm
from core.outages import Outage, absorb, absorb_all
from core.timing import Timing
from tests.core.helpers import INTRO, RECONNECT, TURN, WORDS, start

REAL = Timing()  # turns expire, players drop out
LONG = 5 * RECONNECT  # an outage far longer than the reconnect window


def live_at(now: int) -> tm.Tournament:
    t = start(seed=31, timing=REAL)
    t, _ = tm.advance(t, now, WORDS)
    return t


def test_d9_an_outage_longer_than_the_window_drops_nobody_who_was_playing() -> None:
    polled = INTRO + 5_000  # everyone's last stored contact
    t = live_at(polled)
    t = evolve_contacts(t, polled)
    outage = Outage(polled + 2_000, polled + 2_000 + LONG)
    # Without the pause, everybody has left by the end of the outage.
    gone, _ = tm.advance(t, outage.end, WORDS)
    assert all(p.status == "left" for p in gone.players)
    # With it, the windows resume at the end with what they had left.
    paused, _ = absorb(t, outage, heard_at=polled, words=WORDS)
    after, _ = tm.advance(paused, outage.end + 1_000, WORDS)
    assert all(p.status == "playing" for p in after.players)
    assert all(p.last_contact == polled + LONG for p in after.players)


def test_r11_a_turn_nobody_could_play_is_not_a_skip() -> None:
    now = INTRO + 10_000  # 10 s into round 1's first turns
    t = evolve_contacts(live_at(now), now)
    duel = t.round.duels[0]
    left = duel.deadline - now  # 20 s
    outage = Outage(now, now + LONG)
    paused, _ = absorb(t, outage, heard_at=now, words=WORDS)
    held = paused.round.duels[0]
    assert held.deadline == duel.deadline + LONG and held.turns == ()
    just_before, _ = tm.advance(paused, outage.end + left - 1, WORDS)
    assert just_before.round.duels[0].turns == ()  # still the first turn, unplayed
    at_deadline, _ = tm.advance(paused, outage.end + left, WORDS)
    skip = at_deadline.round.duels[0].turns[0]
    assert skip.skipped and skip.at == outage.end + left
    # The turn after it is a whole turn again.
    assert at_deadline.round.duels[0].deadline == skip.at + TURN


def test_r2_an_intro_resumes_with_the_time_it_had_left() -> None:
    t = live_at(1_000)
    outage = Outage(2_000, 2_000 + LONG)
    paused, _ = absorb(t, outage, heard_at=1_000, words=WORDS)
    assert paused.round.starts_at == t.round.starts_at + LONG
    assert all(d.starts_at == paused.round.starts_at for d in paused.round.duels)


def test_what_was_due_before_the_outage_still_happened() -> None:
    """A turn whose deadline passed before the outage began is a skip, as it would have been."""
    t = evolve_contacts(live_at(INTRO), INTRO)
    outage = Outage(INTRO + TURN + 1_000, INTRO + TURN + 1_000 + LONG)
    paused, _ = absorb(t, outage, heard_at=INTRO, words=WORDS)
    first = paused.round.duels[0].turns[0]
    assert first.skipped and first.at == INTRO + TURN


def test_d9_a_tournament_nobody_was_playing_is_not_paused_again() -> None:
    """Nobody was heard from (real stamps) for a whole window before an outage: nobody was
    playing, so nothing resumes. A silent system cannot tell an outage from silence: so a
    tournament whose players all fell silent at once is paused by such gaps for at most about
    one window, never for ever."""
    polled = INTRO + 5_000
    t = evolve_contacts(live_at(polled), polled)
    first = Outage(polled + 2_000, polled + 2_000 + LONG)
    t, _ = absorb(t, first, heard_at=polled, words=WORDS)
    second = Outage(first.end + 10_000, first.end + 10_000 + LONG)
    assert polled + RECONNECT <= second.start  # nobody heard from since `polled`
    taken, _ = absorb(t, second, heard_at=polled, words=WORDS)
    plain, _ = tm.advance(t, second.start, WORDS)
    assert taken.players == plain.players and taken.rounds == plain.rounds
    assert taken.absorbed == ((first.start, first.end), (second.start, second.end))


def test_d10_an_outage_is_taken_into_account_once_whoever_advances() -> None:
    now = INTRO + 3_000
    t = evolve_contacts(live_at(now), now)
    outage = Outage(now + 1_000, now + 1_000 + LONG)
    once, _ = absorb_all(t, [outage], now, WORDS)
    twice, _ = absorb_all(once, [outage], now, WORDS)
    assert twice is once
    # In one step or many, from the stored state or from a later one, the same result.
    end = outage.end + 50_000
    one_step, _ = tm.advance(once, end, WORDS)
    stepped = once
    for at in range(outage.end, end + 1, 7_000):
        stepped, _ = tm.advance(stepped, at, WORDS)
    stepped, _ = tm.advance(stepped, end, WORDS)
    assert serialization.to_dict(one_step) == serialization.to_dict(stepped)


def test_outages_round_trip_through_storage() -> None:
    now = INTRO + 4_000
    t = evolve_contacts(live_at(now), now)
    paused, _ = absorb(t, Outage(now, now + LONG), now, WORDS)
    assert serialization.from_dict(serialization.to_dict(paused)) == paused
    assert serialization.from_dict(serialization.to_dict(t)) == t  # nothing extra when none


def test_shift_of_a_timer_by_an_outage() -> None:
    o = Outage(100, 160)
    assert [o.shift(x) for x in (50, 100, 130, 160, 170)] == [110, 160, 160, 160, 170]


def evolve_contacts(t: tm.Tournament, at: int) -> tm.Tournament:
    """Every player heard from at `at` (what polling players' stamps give)."""
    for p in t.players:
        t, _ = tm.contact(t, p.id, at, WORDS)
    return t
