"""The scheduled function: zappa calls `handler` every minute (see infra/)."""

from __future__ import annotations

import logging
from functools import cache
from typing import Any

from api import bootstrap
from api.config import Settings
from api.service import Service

log = logging.getLogger("wordle_tournament")


@cache
def _service() -> Service:
    """One service per instance, built as the app's is (api/bootstrap.py)."""
    return bootstrap.service(Settings.from_env())


def handler(event: Any, context: Any) -> dict[str, int]:
    """Advance every tournament whose deadline has passed (house bots' moves too); tend every
    due lobby (house bots fill those whose people waited long enough); refresh the
    leaderboards' snapshots when a minute has passed since the last refresh.

    Never lets an exception escape as a TypeError: zappa's run_function would then call it
    again with fewer arguments (as `f(event)`, then `f()`).
    """
    try:
        service = _service()
        report = service.sweep()
        boards = service.refresh_leaderboards()  # at most once a minute, never raises
    except Exception as exc:
        # The alarm "sweep-failing" counts this line (infra/alarms.yaml); Lambda's Errors too.
        log.error("sweep crashed", exc_info=exc, extra={"fields": {"error": type(exc).__name__}})
        if isinstance(exc, TypeError):  # see the docstring
            raise RuntimeError(str(exc)) from exc
        raise
    result = {
        "due": report.due,
        "advanced": report.advanced,
        "failed": report.failed,
        "lobbies": report.lobbies,
        "moves": report.moves,
        "freed": report.freed,
        "filled": report.filled,
        "boards": boards,
    }
    log.info("sweep", extra={"fields": result})
    return result
