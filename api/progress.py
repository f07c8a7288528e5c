"""A small progress bar on stderr for long commands (silent when stderr is not a terminal)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.started = time.perf_counter()
        self._shown = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        percent = done * 100 // self.total
        if percent == self._shown:
            return
        self._shown = percent
        bar = "#" * (percent // 4)
        elapsed = time.perf_counter() - self.started
        self.stream.write(f"\r{self.label} [{bar:<25}] {percent:3d}% {elapsed:5.1f}s")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.update(self.total)
            self.stream.write("\n")
            self.stream.flush()
