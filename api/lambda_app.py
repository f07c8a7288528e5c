"""The Lambda entry point: zappa's `app_function` is `api.lambda_app.app` (see infra/).

Importing this module is the cold start of every instance, so it stays cheap: `bootstrap.app()`
reads the settings from the environment and builds the repository, but it creates no table, opens
no connection (botocore's client is made on the first DynamoDB call) and reads no word list (each
language's lists load on first use). `wordle-tournament bench coldstart` measures it.
"""

from __future__ import annotations

from api import bootstrap
from api.http import logs

app = bootstrap.app()

if app.extensions["service"].passes.scope == "per_process":
    # Without WT_POLL_PASS_KEY every instance signs with a key of its own: nothing breaks, but
    # a poll that reaches another instance reads its player again. One line a cold start, which
    # the stage's `poll-pass-key` alarm counts (infra/alarms.yaml).
    logs.configure().warning(
        logs.POLL_PASS_KEY_MISSING,
        extra={"fields": {"setting": "WT_POLL_PASS_KEY", "poll_passes": "per_process"}},
    )
