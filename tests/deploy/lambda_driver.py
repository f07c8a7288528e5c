"""Plays requests and the sweep through zappa's Lambda handler, from an unpacked package.

Run by tests/deploy/test_package.py as `python -I -S lambda_driver.py PACKAGE RUNTIME`: isolated
mode and no site-packages, so the only importable code is the standard library, PACKAGE (the
unpacked zip, Lambda's /var/task) and then RUNTIME (boto3, botocore and their dependencies,
which the Lambda runtime provides and the package leaves out). Prints one JSON object.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from typing import Any

PACKAGE, RUNTIME = sys.argv[1], sys.argv[2]
sys.path.insert(0, PACKAGE)
sys.path.append(RUNTIME)
os.chdir(PACKAGE)  # Lambda runs with /var/task as the working directory

import handler  # noqa: E402  zappa's handler.py at the zip root: Lambda's handler.lambda_handler

HOST = "abc123.execute-api.us-east-1.amazonaws.com"


class Context:
    """What the Lambda runtime passes as `context` (the attributes zappa and the app read)."""

    function_name = "wordle-tournament-dev"
    function_version = "$LATEST"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:wordle-tournament-dev"
    memory_limit_in_mb = 512
    log_group_name = "/aws/lambda/wordle-tournament-dev"
    log_stream_name = "2026/11/29/[$LATEST]0123456789abcdef"

    def __init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())

    def get_remaining_time_in_millis(self) -> int:
        return 29_000


def http(method: str, path: str, body: Any = None, token: str | None = None) -> dict[str, Any]:
    """An API Gateway HTTP API (v2) event, payload format 2.0, on the $default stage."""
    headers = {"host": HOST, "user-agent": "pytest", "x-forwarded-for": "203.0.113.7"}
    if body is not None:
        headers["content-type"] = "application/json"
    if token:
        headers["authorization"] = f"Bearer {token}"
    now = time.time()
    event = {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": path,
        "rawQueryString": "",
        "headers": headers,
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abc123",
            "domainName": HOST,
            "domainPrefix": "abc123",
            "http": {
                "method": method,
                "path": path,
                "protocol": "HTTP/1.1",
                "sourceIp": "203.0.113.7",
                "userAgent": "pytest",
            },
            "requestId": uuid.uuid4().hex[:16],
            "routeKey": "$default",
            "stage": "$default",
            "time": time.strftime("%d/%b/%Y:%H:%M:%S +0000", time.gmtime(now)),
            "timeEpoch": int(now * 1000),
        },
        "isBase64Encoded": False,
    }
    if body is not None:
        event["body"] = json.dumps(body)
    return event


def scheduled() -> dict[str, Any]:
    """The EventBridge event of the rule zappa names `<function>-<module.path.function>`."""
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": "123456789012",
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "region": "us-east-1",
        "resources": [
            "arn:aws:events:us-east-1:123456789012:rule/"
            "wordle-tournament-dev-scheduler.handler.handler"
        ],
        "detail": {},
    }


def call(event: dict[str, Any]) -> Any:
    return handler.lambda_handler(event, Context())


def response(event: dict[str, Any]) -> dict[str, Any]:
    out = call(event)
    body = out.get("body") or ""
    is_json = out["headers"].get("Content-Type", "").startswith("application/json")
    return {
        "status": out["statusCode"],
        "headers": out["headers"],
        "base64": out["isBase64Encoded"],
        "json": json.loads(body) if is_json and body else None,
        "text": None if is_json else body[:200],
    }


def main() -> None:
    result: dict[str, Any] = {}
    result["health"] = response(http("GET", "/v1/health"))
    players = [response(http("POST", "/v1/players", {})) for _ in range(8)]
    result["player"] = players[0]
    tokens = [p["json"]["token"] for p in players]
    result["me"] = response(http("GET", "/v1/me", token=tokens[0]))
    result["me_anonymous"] = response(http("GET", "/v1/me"))
    result["index"] = response(http("GET", "/"))
    result["queue"] = [
        response(http("POST", "/v1/queue", {"language": "en"}, tokens[i]))["status"]
        for i in range(8)
    ]
    result["status_after"] = response(http("GET", "/v1/me", token=tokens[7]))
    result["sweep_now"] = call(scheduled())
    time.sleep(1.2)  # past the configured intro (0.05 s) and turn (1 s): the tournament is due
    result["sweep_due"] = call(scheduled())
    import boto3
    import flask
    import pynamodb

    import api

    result["origins"] = {
        m.__name__: m.__file__ for m in (handler, flask, pynamodb, api, boto3) if m.__file__
    }
    result["loaded_languages"] = sorted(sys.modules["wordlists.store"]._loaded)
    print(json.dumps(result))


main()
