"""Outage-safe time: the service notices that storage could not be written, and afterwards every
advance takes the outage into account (core/outages.py: a pause, not a massacre).

How an outage is noticed: storage's heartbeat. One small item, `S#clock`, holds the last time
storage was known to be writable (`at`) and the outages recorded lately. The scheduled sweep
beats it on every run; an instance that advances tournaments beats it whenever its own view is
older than `beat_ms` and nobody else has beaten since (so the item is written about once per
`beat_ms` in all, and read once per `beat_ms` per busy instance). A beat that finds the last one
older than `gap_ms` records the gap as an outage, in the same conditional write: nobody could
write in between, or somebody would have beaten.

Why no advance can cross an outage that is not recorded yet (the race with an instance that saw
no failure): an instance only advances with a view it refreshed less than `beat_ms` ago, and a
refresh leaves the heartbeat at most `beat_ms` old (it beats otherwise). So when it advances at
`now`, the last beat it knows is less than 2 · `beat_ms` < `gap_ms` old: any outage that ended
before `now` ended before its refresh, and its refresh saw it recorded, or recorded it itself.

An idle system: no traffic, so only the sweep beats, once a minute in production. A gap between
two sweeps is then recorded too; it pauses nothing, because a tournament is paused only if its
players were heard from within a reconnect window before the outage (core/outages.py), and a
tournament whose players all fell silent at once is paused by such gaps for about one window
at most. Outages shorter than `gap_ms` are not recorded: clients are advised to poll at least
every two thirds of a window, so a polling player survives any outage up to a third of it
(Settings.problems keeps `gap_ms` within that).

Copies, for many instances (Layout.clock_copies > 0): tens of thousands of busy instances reading
the one item would pass its partition's 3,000 read units a second, so each refresh reads one of
`copies` items `S#clock#<n>` at random instead. A copy only ever holds a beat that the
heartbeat itself held (read from it, or written to it), and a refresh takes a copy only if that
beat is less than `beat_ms` old; otherwise it refreshes as above, from the heartbeat (a
consistent read, beating it when it is old), and writes what it found into the copy. So every
view an instance takes is a beat the heartbeat held less than `beat_ms` before, as without
copies, and the argument above holds word for word: the beat it names was a successful write,
so no unrecorded outage can have ended between it and the refresh. Each copy is written about
once per `beat_ms` (by the first of its readers to find it old), the heartbeat read that often
per copy: `copies` times one partition's worth of readers.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from api.storage.records import ClockRecord
from api.storage.repository import Heartbeat
from core.outages import Outage

KEEP_MS = 6 * 3600 * 1000  # outages older than the longest tournament are forgotten
MAX_KEPT = 200  # and at most this many are kept (an item of a few KB)


class OutageWatch:
    """This instance's view of storage's heartbeat. Thread-safe."""

    def __init__(
        self,
        repo: Heartbeat,
        clock: Callable[[], int],
        beat_ms: int,
        gap_ms: int,
        copies: int = 0,
        rng: random.Random | None = None,
    ) -> None:
        if not 0 < 2 * beat_ms < gap_ms:
            raise ValueError("the outage gap must be more than twice the heartbeat interval")
        self.repo = repo
        self.clock = clock
        self.beat_ms = beat_ms
        self.gap_ms = gap_ms
        self.copies = copies
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._outages: tuple[Outage, ...] = ()
        self._checked: int | None = None

    def outages(self, now: int | None = None) -> tuple[Outage, ...]:
        """The recorded outages, from a view of a heartbeat less than `beat_ms` old (refreshed
        otherwise: raises Unavailable while storage is down)."""
        now = self.clock() if now is None else now
        with self._lock:
            if self._checked is not None and 0 <= now - self._checked < self.beat_ms:
                return self._outages
        return self.refresh(now)

    def refresh(self, now: int | None = None, *, beat: bool = False) -> tuple[Outage, ...]:
        """Read the heartbeat (or a fresh copy of it); beat it if it is older than `beat_ms`
        (or `beat`: the sweep)."""
        now = self.clock() if now is None else now
        copy = self._rng.randrange(self.copies) if self.copies and not beat else None
        if copy is not None:
            held = self.repo.get_clock(copy=copy)
            if held is not None and 0 <= now - held.at < self.beat_ms:
                return self._take(held, now)
            record = self.repo.get_clock(consistent=True)  # the copy is old: its source
        else:
            record = self.repo.get_clock()
        for _ in range(5):
            fresh = record is not None and now - record.at < self.beat_ms and not beat
            if record is not None and (record.at >= now or fresh):
                break
            new = self._beat(record, now)
            if self.repo.put_clock(record, new):
                record = new
                break
            record = self.repo.get_clock(consistent=True)  # someone else beat: take theirs
        if copy is not None and record is not None:
            self.repo.put_clock_copy(copy, record)
        return self._take(record, now)

    def _take(self, record: ClockRecord | None, now: int) -> tuple[Outage, ...]:
        outages = tuple(Outage(s, e) for s, e in (record.outages if record else ()))
        # The view lasts while the heartbeat it saw is younger than `beat_ms` (not `beat_ms`
        # after the refresh): else one instance's polls `beat_ms` apart could leave the
        # heartbeat up to twice that old between its beats, which a lone person's game (D18:
        # the others house bots) takes for an outage of the whole gap.
        seen = now if record is None else min(now, record.at)
        with self._lock:
            if self._checked is None or seen >= self._checked:
                self._outages, self._checked = outages, seen
        return outages

    def _beat(self, last: ClockRecord | None, now: int) -> ClockRecord:
        if last is None:
            return ClockRecord(now)  # the first beat: nothing before it to judge
        kept = [o for o in last.outages if o[1] >= now - KEEP_MS]
        if now - last.at > self.gap_ms:
            kept.append((last.at, now))
        return ClockRecord(now, tuple(kept[-MAX_KEPT:]))
