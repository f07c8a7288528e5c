"""R11, R21, D9, D10: a storage outage is a pause, not a massacre.

While storage cannot be written, nobody can play a turn and no contact can be recorded. Once it
is back, the service knows the outage as a window [start, end] (api/service/outages.py), and a
tournament that was being played when it began takes it into account once: every timer that
was running at `start` (the current turns, an intro, every disconnect window) resumes at `end`
with the time it had left. A turn that nobody could play is not a skip; a player who was polling
is not treated as disconnected.

A tournament that nobody was heard from for a whole reconnect window before `start` was not
being played: its players had already gone, and the outage changes nothing for it (an idle
system, in which nobody could have noticed an outage, stays idle).

Pure, like the rest of `core`: the state at time t is a function of the stored deadlines, the
stored outage windows and t (D10).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.events import Event
from core.evolve import evolve
from core.tournament import advance
from core.tournament_state import Tournament
from core.words import WordSource


@dataclass(frozen=True, slots=True, order=True)
class Outage:
    start: int  # the last moment storage was known to be writable
    end: int  # the first moment it was writable again

    @property
    def length(self) -> int:
        return self.end - self.start

    def shift(self, at: int) -> int:
        """Where a timer that started at `at` starts once the pause is taken out: before the
        outage, later by its length; during it, at its end; after it, unchanged."""
        if at <= self.start:
            return at + self.length
        return max(at, self.end)


def absorb(
    t: Tournament, outage: Outage, heard_at: int, words: WordSource
) -> tuple[Tournament, list[Event]]:
    """Take `outage` into account (once). `heard_at`: the latest time any of the tournament's
    players was heard from (stored contact stamps), which tells whether it was being played."""
    key = (outage.start, outage.end)
    if key in t.absorbed or outage.end <= t.created_at:
        return t, []
    # Whatever was due before the outage happened, as it would have without it.
    t, events = advance(t, outage.start, words)
    if t.finished_at is not None:
        return t, events
    played = heard_at + t.timing.reconnect_ms > outage.start
    if played:
        t = _paused(t, outage)
    return evolve(t, absorbed=(*t.absorbed, key)), events


def absorb_all(
    t: Tournament, outages: Iterable[Outage], heard_at: int, words: WordSource
) -> tuple[Tournament, list[Event]]:
    """Every outage in time order (see `absorb`)."""
    events: list[Event] = []
    for outage in sorted(outages):
        t, more = absorb(t, outage, heard_at, words)
        events += more
    return t, events


def _paused(t: Tournament, outage: Outage) -> Tournament:
    players = tuple(
        evolve(p, last_contact=outage.shift(p.last_contact))
        if p.lives > 0 and p.left_at is None
        else p
        for p in t.players
    )
    rnd = t.rounds[-1]
    if rnd.starts_at > outage.start:  # in an intro: the round starts that much later
        starts_at = outage.shift(rnd.intro_at) + (rnd.starts_at - rnd.intro_at)
        duels = tuple(evolve(d, starts_at=starts_at) for d in rnd.duels)
        rnd = evolve(rnd, starts_at=starts_at, duels=duels)
    else:  # each running turn keeps the time it had left
        duels = tuple(
            d
            if d.ended_at is not None
            else evolve(
                d,
                held_ms=d.held_ms
                + outage.shift(d.turn_started_at + d.held_ms)
                - (d.turn_started_at + d.held_ms),
            )
            for d in rnd.duels
        )
        rnd = evolve(rnd, duels=duels)
    return evolve(t, players=players, rounds=(*t.rounds[:-1], rnd))
