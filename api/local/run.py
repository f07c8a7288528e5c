"""`make run`: the whole stack in one process.

The store (WT_STORE: DynamoDB Local by default, its data in WT_DATA_DIR; see api/local/stores.py)
with the table created if missing, the Flask API and browser client, the sweep every second, and
the practice bots' pool (WT_BOTS). Ctrl-C or SIGTERM stops everything, DynamoDB Local included.
"""

from __future__ import annotations

import faulthandler
import os
import secrets
import signal
import sys
from dataclasses import replace

from werkzeug.serving import run_simple

from api import bootstrap
from api.bots.pool import BotPool
from api.config import Settings
from api.http.app import create_app
from api.local import console, ttl
from api.local.dynamodb_local import stop_on_sigterm
from api.local.stores import open_store
from api.local.watch import STORE_LOST
from api.storage.dynamodb.repository import create_table
from scheduler import loop


def local_settings(env: dict[str, str]) -> Settings:
    """The environment's settings with `make run`'s defaults: practice bots, and DynamoDB Local
    unless WT_STORE names another store or a DYNAMODB_ENDPOINT is given without it."""
    defaults = {"WT_BOTS": "1"}
    if not env.get("WT_STORE") and not env.get("DYNAMODB_ENDPOINT"):
        defaults["WT_STORE"] = "dynamodb-local"
    settings = Settings.from_env({**defaults, **env})
    if settings.bots and not settings.bot_key:
        settings = replace(settings, bot_key=secrets.token_urlsafe(24))  # new every run
    return settings


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
    sweeping = loop.start(service)
    expiring = ttl.start(settings)  # DynamoDB Local never deletes expired items itself
    app = create_app(service)
    if settings.bots:
        pool = BotPool(f"http://127.0.0.1:{settings.port}", settings, service.ctx.repo)
        pool.install(app)
        pool.start()
        print(
            f"bots fill a person's lobby after {settings.bot_fill_ms / 1000:g} s (WT_BOTS=0: none)",
            file=sys.stderr,
        )
    timing = settings.timing
    print(
        f"store {settings.store}, table {settings.table_name}: {where}\n"
        f"Wordle Tournament on http://127.0.0.1:{settings.port} "
        f"(turn {timing.turn_ms / 1000:g} s, intro {timing.intro_ms / 1000:g} s, "
        f"reconnect {timing.reconnect_ms / 1000:g} s) — Ctrl-C stops it",
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
