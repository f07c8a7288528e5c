"""infra/alarms.yaml and infra/backup.yaml agree with the code: every alarm goes to the topic,
the metric filters match the log lines the app and the sweep really write, the DynamoDB alarm
watches the table and each of its indexes, and AWS Backup selects the stage's table beside its
point-in-time recovery."""

from __future__ import annotations

import io
import json
import logging
import re
import subprocess
import sys
from typing import Any

import pytest

from api.loadtest.prices import PriceModel
from api.storage.dynamodb.schema import table_definition
from tests.deploy.conftest import INFRA, ROOT
from tests.deploy.test_infra import cfn

FUNCTION = "wordle-tournament-${Stage}"
LOG_GROUP = "/aws/lambda/wordle-tournament-${Stage}"


def resources(template: str, kind: str) -> dict[str, dict[str, Any]]:
    found = cfn(template)["Resources"]
    return {name: r["Properties"] for name, r in found.items() if r["Type"] == kind}


def alarms() -> dict[str, dict[str, Any]]:
    return resources("alarms.yaml", "AWS::CloudWatch::Alarm")


def metrics_of(alarm: dict[str, Any]) -> list[dict[str, Any]]:
    """(namespace, name, dimensions) of every metric an alarm reads."""
    if "MetricName" in alarm:
        return [alarm]
    return [m["MetricStat"]["Metric"] for m in alarm["Metrics"] if "MetricStat" in m]


def dimensions(metric: dict[str, Any]) -> dict[str, Any]:
    return {d["Name"]: d["Value"] for d in metric.get("Dimensions", [])}


def test_every_alarm_notifies_the_topic_both_ways() -> None:
    found = alarms()
    assert len(found) >= 7
    for name, alarm in found.items():
        assert alarm["AlarmActions"] == [{"Ref": "AlarmTopicArn"}], name
        assert alarm["OKActions"] == [{"Ref": "AlarmTopicArn"}], name
        assert alarm["AlarmName"]["Fn::Sub"].startswith("wordle-tournament-${Stage}-"), name
    assert cfn("alarms.yaml")["Parameters"]["AlarmTopicArn"]["Type"] == "String"


def test_lambda_errors_and_throttles_are_watched() -> None:
    watched = {
        m["MetricName"]
        for alarm in alarms().values()
        for m in metrics_of(alarm)
        if m.get("Namespace") == "AWS/Lambda"
        and dimensions(m) == {"FunctionName": {"Fn::Sub": FUNCTION}}
    }
    assert watched == {"Errors", "Throttles"}


def test_dynamodb_throttles_of_the_table_and_every_index_are_watched() -> None:
    table = {"Fn::Sub": "wordle-tournament-${Stage}"}
    indexes = [i["IndexName"] for i in table_definition("t")["GlobalSecondaryIndexes"]]
    wanted = {(name, None) for name in ("ReadThrottleEvents", "WriteThrottleEvents")}
    wanted |= {(name, i) for name in ("ReadThrottleEvents", "WriteThrottleEvents") for i in indexes}
    watched = set()
    for alarm in alarms().values():
        for m in metrics_of(alarm):
            if m.get("Namespace") == "AWS/DynamoDB":
                dims = dimensions(m)
                assert dims["TableName"] == table
                watched.add((m["MetricName"], dims.get("GlobalSecondaryIndexName")))
    assert watched == wanted


def test_api_5xx_are_watched_from_the_logs_and_from_api_gateway() -> None:
    found = alarms()
    gateway = [a for a in found.values() if a.get("Namespace") == "AWS/ApiGateway"]
    assert [a["MetricName"] for a in gateway] == ["5xx"]
    assert cfn("alarms.yaml")["Resources"]["GatewayServerErrorsAlarm"]["Condition"] == "HasApi"
    assert any(a.get("MetricName") == "ServerErrors" for a in found.values())


# ---------------------------------------------------------------------------- log lines


def json_lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def filter_patterns() -> dict[str, str]:
    return {
        name: props["FilterPattern"]
        for name, props in resources("alarms.yaml", "AWS::Logs::MetricFilter").items()
    }


def matches(pattern: str, entry: dict[str, Any]) -> bool:
    """CloudWatch's JSON filter syntax, for the few forms these filters use:
    `$.f = "s"`, `$.f >= n`, `$.f > n`, joined by && and ||, with parentheses."""

    def term(m: re.Match[str]) -> str:
        field, op, value = m[1], m[2], m[3]
        got = entry.get(field)
        if value.startswith('"'):
            return str(got == json.loads(value))
        if not isinstance(got, int | float):
            return "False"
        return str(eval(f"{got} {op} {value}"))

    body = pattern.strip()
    assert body.startswith("{") and body.endswith("}")
    expression = re.sub(r'\$\.(\w+)\s*(=|>=|>|<=|<)\s*("[^"]*"|-?\d+)', term, body[1:-1])
    expression = expression.replace("&&", " and ").replace("||", " or ")
    assert re.fullmatch(r"[\sA-Za-z()]*", expression), expression
    return bool(eval(expression))


class _Sweeper:
    def __init__(self, report: Any = None, error: Exception | None = None) -> None:
        self.report, self.error = report, error

    def sweep(self) -> Any:
        if self.error is not None:
            raise self.error
        return self.report

    def refresh_leaderboards(self) -> int:
        return 14


def test_the_sweep_filters_match_what_the_sweep_logs(
    log_lines: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    from api.service.sweep import SweepReport
    from scheduler import handler

    patterns = filter_patterns()
    for report, runs, failures in (
        (SweepReport(due=3, advanced=3, failed=0), True, False),
        (SweepReport(due=3, advanced=1, failed=2), True, True),
    ):
        monkeypatch.setattr(handler, "_service", lambda r=report: _Sweeper(r))
        handler.handler({}, None)
        entry = json_lines(log_lines)[-1]
        assert matches(patterns["SweepRunsFilter"], entry) is runs
        assert matches(patterns["SweepFailuresFilter"], entry) is failures
    monkeypatch.setattr(handler, "_service", lambda: _Sweeper(error=OSError("store down")))
    with pytest.raises(OSError):
        handler.handler({}, None)
    crashed = json_lines(log_lines)[-1]
    assert crashed["level"] == "error"
    assert matches(patterns["SweepFailuresFilter"], crashed)
    assert not matches(patterns["SweepRunsFilter"], crashed)


def test_the_5xx_filter_matches_the_request_lines(log_lines: io.StringIO) -> None:
    from api.config import Settings
    from api.http.app import create_app
    from api.service import Service
    from api.service.context import Context
    from api.storage.memory import InMemoryRepository
    from tests.api.repos import BrokenRepo

    broken = BrokenRepo(InMemoryRepository())
    client = create_app(Service(Context(broken, Settings()))).test_client()
    assert client.post("/v1/players").status_code == 201  # a write: always logged
    broken.down = True
    assert client.get("/v1/health").status_code == 503
    ok, down = [e for e in json_lines(log_lines) if e["message"] == "request"][-2:]
    pattern = filter_patterns()["ServerErrorsFilter"]
    assert not matches(pattern, ok)
    assert matches(pattern, down)


def test_an_instance_without_the_poll_pass_key_logs_the_line_its_alarm_counts() -> None:
    """The entry point warns once as it is imported (a cold start) when WT_POLL_PASS_KEY is not
    set, and the `poll-pass-key` alarm's filter counts that line; with the key it says
    nothing."""
    pattern = filter_patterns()["PollPassKeyMissingFilter"]
    alarm = alarms()["PollPassKeyMissingAlarm"]
    assert alarm["MetricName"] == "PollPassKeyMissing"
    env = {"PATH": "/usr/bin:/bin", "AWS_DEFAULT_REGION": "us-east-1", "WT_TABLE": "t"}

    def cold_start(extra: dict[str, str]) -> list[dict[str, Any]]:
        done = subprocess.run(
            [sys.executable, "-c", "import api.lambda_app"],
            cwd=ROOT,
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        )
        return [json.loads(line) for line in done.stderr.splitlines() if line.startswith("{")]

    (warned,) = [e for e in cold_start({}) if matches(pattern, e)]
    assert warned["level"] == "warning" and warned["setting"] == "WT_POLL_PASS_KEY"
    assert not any(matches(pattern, e) for e in cold_start({"WT_POLL_PASS_KEY": "k" * 32}))


# ---------------------------------------------------------------------------- Lambda's lines


def test_lambda_drops_its_per_request_lines_and_keeps_every_app_line() -> None:
    """The function's logging configuration drops Lambda's START/END/REPORT lines (system log
    level WARN), the deploy steps apply it (zappa cannot), and the price model, which counts
    none of those lines, says the same."""
    config = json.loads((INFRA / "lambda_logging.json").read_text())
    assert config == {"LogFormat": "JSON", "ApplicationLogLevel": "INFO", "SystemLogLevel": "WARN"}
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    command = re.compile(
        r"aws lambda update-function-configuration --function-name wordle-tournament-(\w+) "
        r"\\\n\s+--logging-config file://infra/lambda_logging\.json"
    )
    assert [m.group(1) for m in command.finditer(deploy)] == ["dev"]
    assert PriceModel().lambda_log_bytes_per_request == 0


def test_the_app_lines_pass_lambdas_application_log_level(log_lines: io.StringIO) -> None:
    """Lambda filters JSON lines by their `level` (an unknown one counts as INFO): every level
    the app writes is INFO or above, so ApplicationLogLevel INFO keeps them all."""
    logger = logging.getLogger("wordle_tournament")
    for level in (logging.INFO, logging.WARNING, logging.ERROR):
        logger.log(level, "request", extra={"fields": {"request_id": "r"}})
    lambda_levels = {"trace": 0, "debug": 1, "info": 2, "warn": 3, "error": 4, "fatal": 5}
    written = [entry["level"] for entry in json_lines(log_lines)]
    assert written == ["info", "warning", "error"]
    assert all(lambda_levels.get(level, lambda_levels["info"]) >= 2 for level in written)


# ---------------------------------------------------------------------------- backup


def test_aws_backup_selects_the_stage_table_beside_point_in_time_recovery() -> None:
    table = cfn("dynamodb.yaml")["Resources"]["Table"]["Properties"]
    assert table["PointInTimeRecoverySpecification"]["PointInTimeRecoveryEnabled"] is True
    (selection,) = resources("backup.yaml", "AWS::Backup::BackupSelection").values()
    arn = "arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/"
    assert selection["BackupSelection"]["Resources"] == [
        {"Fn::Sub": arn + "wordle-tournament-${Stage}"}
    ]
    (plan,) = resources("backup.yaml", "AWS::Backup::BackupPlan").values()
    (rule,) = plan["BackupPlan"]["BackupPlanRule"]
    assert rule["ScheduleExpression"].startswith("cron(")
    assert rule["Lifecycle"]["DeleteAfterDays"] == {"Ref": "RetentionDays"}
    vault = cfn("backup.yaml")["Resources"]["Vault"]
    assert vault["DeletionPolicy"] == "Retain"


def test_the_load_test_prices_lambda_at_the_deployed_memory_size() -> None:
    """Lambda is priced as deployed, so the price model's memory is the function's."""
    import json
    from pathlib import Path

    from api.loadtest.prices import PriceModel

    zappa = json.loads((Path(__file__).parents[2] / "infra" / "zappa_settings.json").read_text())
    sizes = {stage["memory_size"] for stage in zappa.values() if "memory_size" in stage}
    assert sizes == {PriceModel().lambda_memory_mb}
