"""A dependency-free progress bar on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.width = width
        self.started = time.monotonic()

    def show(self, label: str) -> None:
        filled = self.width * self.done // max(self.total, 1)
        bar = "#" * filled + "-" * (self.width - filled)
        elapsed = time.monotonic() - self.started
        end = "\r" if self.stream.isatty() else "\n"
        self.stream.write(f"[{bar}] {self.done}/{self.total} {elapsed:5.0f}s {label:<40}{end}")
        self.stream.flush()

    def advance(self, label: str) -> None:
        self.done += 1
        self.show(label)

    def close(self) -> None:
        if self.stream.isatty():
            self.stream.write("\n")
