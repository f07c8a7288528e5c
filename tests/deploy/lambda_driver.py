"""Plays requests and the sweep through zappa's Lambda handler, from an unpacked package.

Run by tests/deploy/test_package.py as `python -I -S lambda_driver.py PACKAGE RUNTIME [solo
LANGUAGE]`: isolated mode and no site-packages, so the only importable code is the standard
library, PACKAGE (the unpacked zip, Lambda's /var/task) and then RUNTIME (boto3, botocore and
their dependencies, which the Lambda runtime provides and the package leaves out). Prints one
JSON object.

`solo LANGUAGE` (D18): one person queues alone and plays a whole tournament against house bots,
every request an API Gateway event and the sweep the scheduled event once a minute, on a driven
clock: the process's wall clock (`time.time_ns`, the service's only clock) moves only when the
person waits, so fifteen minutes of play take seconds. The person is tests/deploy/solo.py
(beside this file), which uses only the package's own modules.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from typing import Any

PACKAGE, RUNTIME = sys.argv[1], sys.argv[2]
MODE = sys.argv[3:]
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, PACKAGE)
sys.path.append(RUNTIME)
os.chdir(PACKAGE)  # Lambda runs with /var/task as the working directory


class DrivenClock:
    """The process's wall clock, moved only by `set` (solo mode)."""

    def __init__(self) -> None:
        self.ms = time.time_ns() // 1_000_000

    def __call__(self) -> int:
        return self.ms

    def set(self, ms: int) -> None:
        self.ms = max(self.ms, ms)

    def time_ns(self) -> int:
        return self.ms * 1_000_000


CLOCK = DrivenClock()
if MODE[:1] == ["solo"]:
    time.time_ns = CLOCK.time_ns  # before the handler: every clock of the service reads this

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


def solo(language: str) -> None:
    """D18 at the deployed cadence, through the handler (see the module's docstring)."""
    sys.path.insert(1, HERE)
    from solo import Solo  # tests/deploy/solo.py: the package's modules only

    from api.config import Settings
    from api.storage.dynamodb.repository import DynamoRepository

    def transport(method: str, path: str, body: Any, token: str | None) -> tuple[int, dict, Any]:
        answer = response(http(method, path, body, token))
        headers = {k.lower(): v for k, v in answer["headers"].items()}
        return answer["status"], headers, answer["json"]

    swept: list[dict[str, Any]] = []  # what each scheduled event returned
    person = Solo(
        transport,
        CLOCK,
        CLOCK.set,
        language=language,
        sweep=lambda: swept.append(call(scheduled())),
    )
    person.queue()
    person.play()
    repo = DynamoRepository(Settings.from_env())  # read only: what the sweep wrote
    tid = person.tournament_id or ""

    def finished() -> bool:
        record = repo.get_tournament(tid)
        return record is not None and record.tournament.finished_at is not None

    person.watch_sweeps_until(finished, 3_600_000)
    record = repo.get_tournament(tid)
    assert record is not None
    t = record.tournament
    bots = [p for p in repo.get_players([p.id for p in t.players]) if p.house]
    turn_ms = t.timing.turn_ms
    print(
        json.dumps(
            {
                "queued_at": person.queued_at,
                "bots_at": person.bots_at,
                "seen_started": person.seen_started,
                "created_at": t.created_at,
                "marked_bots": len(person.bots()),
                "turns": len(person.turns),
                "late_turns": [vars(x) for x in person.late_turns(turn_ms, late_ms=200)],
                "unplayed_turns": sum(x.played is None for x in person.turns),
                "refused": person.refused,
                "moved_on": person.moved_on,
                "requests": person.requests,
                "sweeps": swept,
                "finished_at": t.finished_at,
                "places": [p.place for p in t.players],
                "bots_free": [b.tournament_id is None for b in bots],
                "history": [h.result.tournament_id for h in repo.history(person.player_id, 5)],
                "out_at": person.out_at,
                "log": person.log,
                "outages": list(c.outages) if (c := repo.get_clock()) else None,
            }
        )
    )


def main() -> None:
    if MODE[:1] == ["solo"]:
        solo(MODE[1])
        return
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
