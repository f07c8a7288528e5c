"""The in-memory fake's rate-limit counters (a window and the one before, as the adapter's
counter items: api/storage/counter_windows.py) and the heartbeat clock with its copies.
"""

from __future__ import annotations

from api.storage import keys
from api.storage.counter_windows import kept, updatable
from api.storage.memory.state import MemoryState
from api.storage.records import ClockRecord


class MemoryCountersAndHeartbeat(MemoryState):
    # Its own state, which InMemoryRepository.__init__ sets beside the shared one.
    _counters: dict[str, dict[int, int]]
    _counters_kept: int  # subjects kept before forgetting those not counted lately
    _heartbeat: ClockRecord | None
    _clock_copies: dict[int, ClockRecord]

    def count(self, key: str, window: int, window_ms: int, add: int) -> tuple[int, int]:
        with self._lock:
            if len(self._counters) > self._counters_kept:  # forget subjects not counted lately
                self._counters = {
                    k: v for k, v in self._counters.items() if max(v, default=0) >= window - 1
                }
                self._counters_kept = max(50_000, 2 * len(self._counters))
            counts = self._counters.get(key)
            # As the adapter: one write, or two when the counter is rebuilt (a failed update).
            writes = 1 if updatable(max(counts, default=None) if counts else None, window) else 2
            _, counts = kept(counts or {}, window, add)
            self._counters[key] = counts
            found = counts.get(window, 0), counts.get(window - 1, 0)
        if self._observer is not None:
            for _ in range(writes):
                self._observer.counted(key)
        return found

    def get_clock(self, *, consistent: bool = False, copy: int | None = None) -> ClockRecord | None:
        with self._lock:
            found = self._heartbeat if copy is None else self._clock_copies.get(copy)
        if self._observer is not None:
            key = keys.CLOCK if copy is None else keys.clock_copy_key(copy)
            self._observer.read_clock(found, consistent=consistent, key=key)
        return found

    def put_clock_copy(self, copy: int, clock: ClockRecord) -> None:
        with self._lock:
            held = self._clock_copies.get(copy)
            if held is None or held.at < clock.at:
                self._clock_copies[copy] = clock
        if self._observer is not None:
            self._observer.wrote_clock(clock, keys.clock_copy_key(copy))

    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        with self._lock:
            applied = self._heartbeat == expected
            if applied:
                self._heartbeat = new
        if self._observer is not None:
            self._observer.wrote_clock(new)
        return applied
