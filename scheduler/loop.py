"""The local stand-in for the scheduled event: the same sweep (and leaderboards' refresh, at
most once a minute), every second, in a thread."""

from __future__ import annotations

import logging
import threading

from api.service import Service
from api.service.errors import ServiceError
from api.storage.repository import StorageError

log = logging.getLogger("wordle_tournament")


def start(service: Service, interval_s: float = 1.0) -> threading.Event:
    """Sweep every `interval_s` seconds until the returned event is set."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(interval_s):
            try:
                service.sweep()
                service.refresh_leaderboards()
            except (ServiceError, StorageError) as exc:
                log.warning("sweep failed", extra={"fields": {"error": str(exc)}})

    threading.Thread(target=run, name="sweep", daemon=True).start()
    return stop
