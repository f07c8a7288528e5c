"""What `make run`'s console shows: the app's own JSON lines (api/http/logs.py: every request
that changes something or fails, a sample of the reads, the store's restarts, expired items
deleted), not werkzeug's line per request, every unchanged poll included. `WT_ACCESS_LOG=1`
brings those back, for debugging."""

from __future__ import annotations

import logging
from collections.abc import Mapping


def access_log(env: Mapping[str, str]) -> bool:
    return env.get("WT_ACCESS_LOG", "0") not in ("", "0")


def configure(env: Mapping[str, str]) -> None:
    """Before the server starts. werkzeug's own errors (a request it could not parse, a
    crashed handler thread) are warnings or worse: they stay."""
    logging.getLogger("werkzeug").setLevel(logging.INFO if access_log(env) else logging.WARNING)
