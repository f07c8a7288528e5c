"""JSON log lines with request ids: one per request that changes something or fails, one per
slow request, and a sample of the successful reads (polls above all), which are most requests
and which API Gateway's and Lambda's own metrics already count (CloudWatch Logs bills every
ingested byte)."""

from __future__ import annotations

import json
import logging
import string
import sys
import time
import zlib
from typing import Any

# The warning of an instance started without the deployment's poll pass key (api/lambda_app.py).
POLL_PASS_KEY_MISSING = "poll passes per process"
SLOW_MS = 500.0  # a request this slow is logged whatever it was (as a warning)
READ_SAMPLE = 100  # one successful read in this many is logged at info (by request id)
FAILURE = "wordle.failure"  # the environ's (cause, error) of a 503, logged with the request


CLIENT_ID_CHARS = frozenset(string.ascii_letters + string.digits + "-_.:/+=")


def client_request_id(sent: str | None) -> str | None:
    """A client's own X-Request-Id, logged as `client_request_id` beside the server's id: up
    to 64 characters of letters, digits and `-_.:/+=` (anything else is not logged)."""
    if sent and len(sent) <= 64 and CLIENT_ID_CHARS.issuperset(sent):
        return sent
    return None


def level_of(method: str | None, status: int, ms: float, request_id: str) -> tuple[int, bool]:
    """(level, sampled) of a request's line. Errors and slow requests are always logged,
    requests that change something at info; successful reads at debug, except one in
    READ_SAMPLE (chosen by the server's random request id, never by anything a client
    sends)."""
    if status >= 500:
        return logging.ERROR, False
    if ms >= SLOW_MS:
        return logging.WARNING, False
    if status >= 400 or method not in ("GET", "HEAD"):
        return logging.INFO, False
    if zlib.crc32(request_id.encode()) % READ_SAMPLE == 0:
        return logging.INFO, True
    return logging.DEBUG, False


class JsonFormatter(logging.Formatter):
    _second = -1
    _stamp = ""

    def _time(self, created: float) -> str:
        # One line per request: format each second once (a race only formats it twice).
        second = int(created)
        if second != self._second:
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(second))
            self._second = second
        return self._stamp

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": self._time(record.created),
            "level": record.levelname.lower(),
            "message": record.getMessage(),
        }
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure(level: int = logging.INFO) -> logging.Logger:
    # One line per request is on the hot path: skip what the JSON line never shows (the
    # "Optimization" section of the logging HOWTO): the caller's frame, thread and process.
    logging._srcfile = None
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    logger = logging.getLogger("wordle_tournament")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JsonFormatter())
        logger.addHandler(handler)
        logger.setLevel(level)
        logger.propagate = False
    return logger
