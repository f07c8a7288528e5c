"""`make run`: the whole stack in one process.

An embedded moto DynamoDB server (unless DYNAMODB_ENDPOINT, or AWS credentials and a region, are
set), the table created at start, the Flask API and browser client, the sweep every second, and
the practice bots' pool (WT_BOTS).
"""

from __future__ import annotations

import os
import secrets
import sys
from dataclasses import replace

from werkzeug.serving import run_simple

from api.bots.pool import BotPool
from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context
from api.storage.dynamo import DynamoRepository, create_table
from api.storage.local import start_local_dynamodb
from scheduler import loop


def main() -> int:
    os.environ.setdefault("WT_BOTS", "1")  # practice bots under `make run`, unless WT_BOTS=0
    settings = Settings.from_env()
    if settings.bots and not settings.bot_key:
        settings = replace(settings, bot_key=secrets.token_urlsafe(24))  # new every run
    uses_aws = bool(
        (os.environ.get("AWS_ACCESS_KEY_ID") or os.environ.get("AWS_PROFILE"))
        and (os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION"))
    )
    if settings.dynamodb_endpoint is None and not uses_aws:
        endpoint = start_local_dynamodb()
        settings = replace(settings, dynamodb_endpoint=endpoint)
        print(f"embedded DynamoDB (moto) at {endpoint}", file=sys.stderr)
    create_table(settings)
    service = Service(Context(DynamoRepository(settings), settings))
    loop.start(service)
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
        f"Wordle Tournament on http://127.0.0.1:{settings.port} "
        f"(turn {timing.turn_ms / 1000:g} s, intro {timing.intro_ms / 1000:g} s, "
        f"reconnect {timing.reconnect_ms / 1000:g} s) — Ctrl-C stops it",
        file=sys.stderr,
    )
    run_simple("127.0.0.1", settings.port, app, threaded=True, use_reloader=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
