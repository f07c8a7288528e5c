"""Whether the store can be read and written: what GET /v1/health answers.

Every check reads a key that never exists (the cheapest call: half a read unit on DynamoDB);
a store that answers reads may still refuse writes (a full disk under DynamoDB Local, a table
throttled for writes), so the check also writes the health item (`S#health`, one write unit),
but at most once per WRITE_EVERY_MS on each instance after a success, and once per
RETRY_EVERY_MS after a failure; between two writes the last write's verdict stands, unless a
request met a failing store meanwhile (the app tells: `noticed`), which brings the next write
forward to DOUBT_EVERY_MS after the last. On AWS, an
instance asked for its health all the time writes 2,880 times a day: $0.0036 a day at
on-demand prices ($1.25 per million write units); a failed write (throttled, unreachable) is
not billed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from api.storage.repository import Heartbeat, Unavailable

WRITE_EVERY_MS = 30_000
RETRY_EVERY_MS = 5_000
DOUBT_EVERY_MS = 1_000  # after another request met a failing store: write again this soon


@dataclass(frozen=True, slots=True)
class Written:
    """The last write's verdict: when it was tried, and why it failed (None: it did not)."""

    at: int
    failure: Unavailable | None


class Health:
    """One per instance (the app's): thread-safe; one write at a time."""

    def __init__(self, repo: Heartbeat, clock: Callable[[], int]) -> None:
        self.repo = repo
        self.clock = clock
        self._last: Written | None = None
        self._doubt = False  # a request met a failing store since the last write
        self._lock = threading.Lock()

    def noticed(self, failure: Unavailable) -> None:
        """Another request met a failing store: the next check writes (within a second)."""
        self._doubt = True

    def check(self) -> int | None:
        """Raise Unavailable (with its cause) if the store cannot be read or written; return
        when it was last written (None: never by this instance)."""
        self.repo.ping()
        now = self.clock()
        last = self._last
        if last is None or now - last.at >= self._every(last):
            last = self._write(now)
        if last.failure is not None:
            raise last.failure
        return last.at

    def _every(self, last: Written) -> int:
        if self._doubt:
            return DOUBT_EVERY_MS
        return RETRY_EVERY_MS if last.failure else WRITE_EVERY_MS

    def _write(self, now: int) -> Written:
        if not self._lock.acquire(blocking=False):  # another request is writing: its verdict
            with self._lock:
                pass
            return self._last or Written(now, None)
        try:
            self._doubt = False
            try:
                self.repo.probe(now)
                self._last = Written(now, None)
            except Unavailable as exc:
                self._last = Written(now, exc)
            return self._last
        finally:
            self._lock.release()
