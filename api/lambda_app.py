"""The Lambda entry point: zappa's `app_function` is `api.lambda_app.app` (see infra/).

Importing this module is the cold start of every instance, so it stays cheap: `bootstrap.app()`
reads the settings from the environment and builds the repository, but it creates no table, opens
no connection (botocore's client is made on the first DynamoDB call) and reads no word list (each
language's lists load on first use). `wordle-tournament bench coldstart` measures it.
"""

from __future__ import annotations

from api import bootstrap

app = bootstrap.app()
