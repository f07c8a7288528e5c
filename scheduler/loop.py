"""The local stand-in for the scheduled event: the same sweep (and leaderboards' refresh, at
most once a minute), every WT_SWEEP_SECONDS (`make run`: 1; the deployed schedule: 60), in a
thread."""

from __future__ import annotations

import logging
import threading

from api.service import Service
from api.service.errors import ServiceError
from api.storage.repository import StorageError

log = logging.getLogger("wordle_tournament")


class Sweeping(threading.Event):
    """Set it to stop sweeping; `stop()` also waits for a sweep under way to end, so that the
    store can be closed after it and no query is left waiting on a store that has gone."""

    thread: threading.Thread

    def stop(self, timeout_s: float = 10.0) -> None:
        self.set()
        self.thread.join(timeout_s)


def start(service: Service, interval_s: float = 1.0) -> Sweeping:
    """Sweep every `interval_s` seconds until the returned event is set."""
    stop = Sweeping()

    def run() -> None:
        while not stop.wait(interval_s):
            try:
                service.sweep()
                service.refresh_leaderboards()
            except (ServiceError, StorageError) as exc:
                log.warning("sweep failed", extra={"fields": {"error": str(exc)}})

    stop.thread = threading.Thread(target=run, name="sweep", daemon=True)
    stop.thread.start()
    return stop
