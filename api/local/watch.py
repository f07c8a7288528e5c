"""`make run` watches its DynamoDB Local: a child that exits is reaped at once (no zombie) and
started again on the same port and data folder, and the console says so. One that cannot be
started again (the jar or Java gone, the port taken, or a fourth exit within a minute) ends
`make run` with a clear message and exit status STORE_LOST.

While it is down, requests fail fast: a refused connection is a 503 with Retry-After (the
adapter's error mapping), never a hang. Nothing acknowledged is lost: DynamoDB Local answers a
write once SQLite has committed it to the data folder (`-sharedDb -dbPath`), and the kernel
keeps what a killed process had written (tests/storage/test_store_heals.py kills it mid-game).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable

from api.http import logs
from api.local.dynamodb_local import DynamoDBLocal, DynamoDBLocalError

STORE_LOST = 69  # EX_UNAVAILABLE (sysexits.h): the store is gone for good
MAX_EXITS = 3  # restarts allowed within EXITS_WITHIN_S; one more exit gives up
EXITS_WITHIN_S = 60.0
ATTEMPTS = 3  # tries to start it again, a second apart


def how_it_ended(status: int) -> str:
    if status < 0:
        try:
            return f"was killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


def stop_this_process(reason: str) -> None:
    """Ends `make run` as SIGTERM does (stop_on_sigterm: everything is stopped in order)."""
    os.kill(os.getpid(), signal.SIGTERM)


class Watch:
    """A thread that polls the child every `every_s` seconds (polling reaps it: Popen.poll)."""

    def __init__(
        self,
        local: DynamoDBLocal,
        *,
        every_s: float = 0.5,
        on_lost: Callable[[str], None] = stop_this_process,
    ) -> None:
        self.local = local
        self.every_s = every_s
        self.on_lost = on_lost
        self.lost: str | None = None  # why it could not be restarted
        self.restarts = 0
        self._exits: list[float] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dynamodb-local-watch", daemon=True)
        self._log = logs.configure()

    def start(self) -> Watch:
        # The thread that restarts the child must outlive it (PR_SET_PDEATHSIG): this one does.
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(70)

    def _run(self) -> None:
        while not self._stopping.wait(self.every_s):
            pid = self.local.pid
            status = self.local.exited()
            if status is not None and not self._stopping.is_set():
                self._exited(pid, status)
                if self.lost is not None:
                    return

    def _exited(self, pid: int | None, status: int) -> None:
        now = time.monotonic()
        self._exits = [t for t in self._exits if now - t < EXITS_WITHIN_S] + [now]
        fields = {
            "pid": pid,
            "how": how_it_ended(status),
            "data": str(self.local.data_dir or "in memory only: its data is gone"),
            "exits_in_a_minute": len(self._exits),
        }
        said = self.local.last_words()
        if said:
            fields["output"] = said[-500:]
        if len(self._exits) > MAX_EXITS:
            self._give_up(f"it exited {len(self._exits)} times within {EXITS_WITHIN_S:g} s")
            return
        self._log.warning("DynamoDB Local exited; restarting it", extra={"fields": fields})
        started = time.monotonic()
        failure = ""
        for attempt in range(ATTEMPTS):
            if attempt:
                self._stopping.wait(1.0)
            if self._stopping.is_set():
                return
            try:
                endpoint = self.local.restart()
            except DynamoDBLocalError as exc:
                failure = str(exc)
                continue
            self.restarts += 1
            self._log.warning(
                "DynamoDB Local restarted",
                extra={
                    "fields": {
                        "pid": self.local.pid,
                        "endpoint": endpoint,
                        "seconds": round(time.monotonic() - started, 1),
                    }
                },
            )
            return
        self._give_up(f"it could not be started again: {failure[-1500:]}")

    def _give_up(self, reason: str) -> None:
        self.lost = f"DynamoDB Local is gone and {reason}"
        self._log.error(
            "DynamoDB Local cannot be restarted: stopping",
            extra={"fields": {"reason": self.lost, "data": str(self.local.data_dir)}},
        )
        self.on_lost(self.lost)
