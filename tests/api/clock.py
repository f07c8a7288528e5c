"""A fake clock for the tests: time moves only when a test moves it."""

from __future__ import annotations

import threading


class FakeClock:
    """Milliseconds that move only when a test moves them. Thread-safe."""

    def __init__(self, start: int) -> None:
        self._ms = start
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return self._ms

    @property
    def ms(self) -> int:
        return self()

    def advance(self, ms: int) -> int:
        with self._lock:
            self._ms += ms
            return self._ms

    def set(self, ms: int) -> None:
        with self._lock:
            if ms < self._ms:
                raise ValueError("time does not go back")
            self._ms = ms
