"""`make run`: the whole stack in one process.

The store (WT_STORE: DynamoDB Local by default, its data in WT_DATA_DIR; see api/local/stores.py)
with the table created if missing, the Flask API and browser client, and the sweep every second
(WT_SWEEP_SECONDS=60 runs it at the deployed cadence). House bots (D18) are the service's own, as
deployed: nothing else runs for them. Ctrl-C or SIGTERM stops everything, DynamoDB Local included.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys

from werkzeug.serving import run_simple

from api import bootstrap
from api.config import Settings
from api.http.app import create_app
from api.local import console, ttl
from api.local.dynamodb_local import stop_on_sigterm
from api.local.stores import open_store
from api.local.watch import STORE_LOST
from api.storage.dynamodb.repository import create_table
from scheduler import loop


def local_settings(env: dict[str, str]) -> Settings:
    """The environment's settings with `make run`'s defaults: the sweep every second, and
    DynamoDB Local unless WT_STORE names another store or a DYNAMODB_ENDPOINT is given
    without it."""
    defaults = {"WT_SWEEP_SECONDS": "1"}
    if not env.get("WT_STORE") and not env.get("DYNAMODB_ENDPOINT"):
        defaults["WT_STORE"] = "dynamodb-local"
    return Settings.from_env({**defaults, **env})


def main() -> int:
    settings = local_settings(dict(os.environ))
    console.configure(os.environ)
    stop_on_sigterm()
    # Ctrl-C stops it even when started from a shell that ignores SIGINT for background jobs
    # (the child inherits the ignore, and Python then installs no KeyboardInterrupt handler).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    faulthandler.register(signal.SIGUSR1)  # `kill -USR1 <pid>`: every thread's stack, to stderr
    store = open_store(settings, heal=True)
    try:
        serve(store.settings, store.where)
    except SystemExit:
        if store.lost() is None:
            raise
    finally:
        store.close()
    lost = store.lost()
    if lost is not None:  # the watch stopped us (api/local/watch.py)
        print(
            f"make run stopped: {lost}. Its data is kept: fix that, then run it again.",
            file=sys.stderr,
        )
        return STORE_LOST
    return 0


def serve(settings: Settings, where: str) -> None:
    create_table(settings)
    repo = bootstrap.repository(settings)
    service = bootstrap.service(settings, repo)
    sweeping = loop.start(service, settings.sweep_ms / 1000)
    expiring = ttl.start(settings)  # DynamoDB Local never deletes expired items itself
    app = create_app(service)
    bots = (
        f"house bots fill a person's lobby after {settings.bot_fill_ms / 1000:g} s"
        if settings.house_bots
        else "no house bots (WT_HOUSE_BOTS=0)"
    )
    timing = settings.timing
    print(
        f"store {settings.store}, table {settings.table_name}: {where}\n"
        f"Wordle Tournament on http://127.0.0.1:{settings.port} "
        f"(turn {timing.turn_ms / 1000:g} s, intro {timing.intro_ms / 1000:g} s, "
        f"reconnect {timing.reconnect_ms / 1000:g} s, sweep every {settings.sweep_ms / 1000:g} s"
        f"); {bots} — Ctrl-C stops it",
        file=sys.stderr,
        flush=True,
    )
    try:
        run_simple("127.0.0.1", settings.port, app, threaded=True, use_reloader=False)
    finally:
        # Before the store stops (main): no sweep may be left waiting on it.
        sweeping.stop()
        if expiring is not None:
            expiring.stop()
        repo.close()


if __name__ == "__main__":
    sys.exit(main())
