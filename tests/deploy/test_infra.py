"""infra/ agrees with the code: the CloudFormation table is `table_definition()`, the function's
role allows exactly the DynamoDB calls the repository makes, cfn-lint passes, the zappa settings
point at real entry points, and the deploy lock satisfies pyproject.toml."""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from api.storage import dynamodb
from api.storage.dynamodb import writes
from api.storage.dynamodb.schema import table_definition, ttl_specification
from api.storage.keys import ACTIVE_INDEX, DUE_INDEX, HISTORY_INDEX, OPEN_INDEX
from tests.deploy.conftest import INFRA, ROOT

STAGES = ("dev", "prod")


def cfn(name: str) -> dict[str, Any]:
    from cfnlint.decode.cfn_yaml import load  # a heavy import: only when a template is read

    template: dict[str, Any] = json.loads(json.dumps(load(str(INFRA / name))))
    return template


def zappa_settings() -> dict[str, Any]:
    settings: dict[str, Any] = json.loads((INFRA / "zappa_settings.json").read_text())
    return settings


def stage(name: str) -> dict[str, Any]:
    settings = zappa_settings()
    merged: dict[str, Any] = {}
    chain = [name]
    while "extends" in settings[chain[-1]]:
        chain.append(settings[chain[-1]]["extends"])
    for link in reversed(chain):
        merged.update(settings[link])
    return merged


# ---------------------------------------------------------------------------- CloudFormation


@pytest.mark.parametrize(
    "template", ["dynamodb.yaml", "function.yaml", "alarms.yaml", "backup.yaml"]
)
def test_cfn_lint_passes(template: str) -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "cfn-lint"), str(INFRA / template)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_cloudformation_table_is_table_definition() -> None:
    table = cfn("dynamodb.yaml")["Resources"]["Table"]
    props = dict(table["Properties"])
    assert props.pop("TableName") == {"Fn::Sub": "wordle-tournament-${Stage}"}
    assert props.pop("TimeToLiveSpecification") == ttl_specification()
    expected = table_definition("ignored")
    del expected["TableName"]
    for key, value in expected.items():
        assert props[key] == value, key
    # Only operational settings beyond the definition (not part of the schema):
    assert set(props) - set(expected) <= {
        "PointInTimeRecoverySpecification",
        "DeletionProtectionEnabled",
        "Tags",
    }
    assert table["DeletionPolicy"] == "Retain"


def _adapter_classes() -> list[type]:
    """The DynamoDB adapter and the parts it is made of: every class of api/storage/dynamodb/."""
    found = []
    for module in pkgutil.iter_modules(dynamodb.__path__):
        loaded = importlib.import_module(f"{dynamodb.__name__}.{module.name}")
        found += [
            cls
            for cls in vars(loaded).values()
            if inspect.isclass(cls) and cls.__module__ == loaded.__name__
        ]
    return found


# A call through the table's connection: `self._conn.X(...)`, `self._table.conn.X(...)`, and
# the same on `.connection`.
_CONNECTION = re.compile(r"self\.(_table\.)?_?conn(\.connection)?")


def _dynamodb_calls() -> set[str]:
    """The DynamoDB API operations the function can make, read from the adapter's code.

    Every call through the table's connection in the methods of the adapter's classes (table
    management excepted: `db create` and the tests run it, never the function), mapped to its
    operation; `dispatch(f"{op.kind}Item")` gives the kinds of `Op` (dynamodb/writes.py).
    """
    to_operation = {
        "get_item": "GetItem",
        "batch_get_item": "BatchGetItem",
        "query": "Query",
        "update_item": "UpdateItem",
        "put_item": "PutItem",
        "delete_item": "DeleteItem",
        "transact_write_items": "TransactWriteItems",
        "transact_get_items": "TransactGetItems",
        "scan": "Scan",
    }
    admin = {"create_table", "delete_table"}
    helpers = {"get_operation_kwargs"}  # builds arguments, calls nothing
    methods = [
        method
        for cls in _adapter_classes()
        for method in ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0].body  # type: ignore[attr-defined]
    ]
    found: set[str] = set()
    unknown: set[str] = set()
    for method in methods:
        if not isinstance(method, ast.FunctionDef) or method.name in admin:
            continue
        for node in ast.walk(method):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            owner = ast.unparse(node.func.value)
            if not _CONNECTION.fullmatch(owner):
                continue
            name = node.func.attr
            if name == "dispatch" and isinstance(node.args[0], ast.Constant):
                found.add(node.args[0].value)
            elif name == "dispatch":  # f"{op.kind}Item": every kind of Op that writes.py builds
                kinds = re.findall(r'Op\(\s*"(\w+)"', inspect.getsource(writes))
                found |= {f"{kind}Item" for kind in kinds}
            elif name in to_operation:
                found.add(to_operation[name])
            elif name not in helpers:
                unknown.add(name)
    assert not unknown, f"map these calls to DynamoDB operations: {unknown}"
    return found


def _iam_actions(operations: set[str]) -> set[str]:
    """IAM actions for API operations: a transaction is authorised per item, by the actions of
    its Put/Update/Delete (and ConditionCheckItem, which the repository never sends)."""
    actions = {f"dynamodb:{op}" for op in operations if op != "TransactWriteItems"}
    if "TransactWriteItems" in operations:
        actions |= {"dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"}
    return actions


def _policy() -> list[dict[str, Any]]:
    role = cfn("function.yaml")["Resources"]["Role"]["Properties"]
    [policy] = role["Policies"]
    statements: list[dict[str, Any]] = policy["PolicyDocument"]["Statement"]
    return statements


def test_the_role_allows_exactly_the_dynamodb_calls_of_the_code() -> None:
    operations = _dynamodb_calls()
    assert {"GetItem", "BatchGetItem", "Query", "UpdateItem", "TransactWriteItems"} <= operations
    granted = {
        action
        for statement in _policy()
        for action in statement["Action"]
        if action.startswith("dynamodb:")
    }
    assert granted == _iam_actions(operations)


def test_the_role_is_scoped_to_the_stage_table_its_indexes_and_its_log_group() -> None:
    table = "arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/"
    table += "wordle-tournament-${Stage}"
    by_sid = {s["Sid"]: s for s in _policy()}
    assert all(s["Effect"] == "Allow" for s in by_sid.values())
    assert set(by_sid) == {"Table", "Indexes", "Logs"}
    assert by_sid["Table"]["Resource"] == [{"Fn::Sub": table}]
    assert "dynamodb:Query" not in by_sid["Table"]["Action"]  # every query goes to an index
    names = (DUE_INDEX, OPEN_INDEX, HISTORY_INDEX, ACTIVE_INDEX)
    indexes = [{"Fn::Sub": f"{table}/index/{i}"} for i in names]
    assert by_sid["Indexes"]["Resource"] == indexes
    assert by_sid["Indexes"]["Action"] == ["dynamodb:Query"]
    assert sorted(by_sid["Logs"]["Action"]) == ["logs:CreateLogStream", "logs:PutLogEvents"]
    assert by_sid["Logs"]["Resource"] == [{"Fn::Sub": "${LogGroup.Arn}"}]
    for statement in by_sid.values():
        assert "*" not in json.dumps(statement["Action"])


def test_names_agree_across_zappa_and_cloudformation() -> None:
    role = cfn("function.yaml")["Resources"]["Role"]["Properties"]["RoleName"]
    log_group = cfn("function.yaml")["Resources"]["LogGroup"]["Properties"]["LogGroupName"]
    for name in STAGES:
        settings = stage(name)
        assert role == {"Fn::Sub": "wordle-tournament-${Stage}-lambda"}
        assert settings["role_name"] == f"wordle-tournament-{name}-lambda"
        assert settings["manage_roles"] is False
        assert settings["aws_environment_variables"]["WT_TABLE"] == f"wordle-tournament-{name}"
        # zappa names the function <project_name>-<stage>; its log group is created above.
        assert log_group == {"Fn::Sub": "/aws/lambda/wordle-tournament-${Stage}"}
        assert settings["project_name"] == "wordle-tournament"


# ---------------------------------------------------------------------------- zappa settings


@pytest.mark.parametrize("name", STAGES)
def test_zappa_settings(name: str) -> None:
    settings = stage(name)
    assert settings["apigateway_version"] == "v2"
    assert settings["architecture"] == "arm64"
    assert settings["runtime"] in ("python3.12", "python3.13", "python3.14")
    assert settings["app_function"] == "api.lambda_app.app"
    assert settings["keep_warm"] is False  # the sweep's event every minute keeps one warm
    assert settings["events"] == [
        {"function": "scheduler.handler.handler", "expression": "rate(1 minute)"}
    ]
    for excluded in ("boto3", "botocore"):
        assert excluded in settings["exclude"]
    assert "environment_variables" not in settings  # configuration is the function's env
    assert settings["timeout_seconds"] < 30  # the HTTP API gives up at 30 s


def test_the_scheduled_function_takes_event_and_context() -> None:
    from scheduler.handler import handler

    # zappa's run_function retries f(event), then f() on a TypeError: never rely on that.
    assert list(inspect.signature(handler).parameters) == ["event", "context"]
    assert "-" not in "scheduler.handler.handler"  # zappa splits the rule name on hyphens


def test_importing_the_entry_point_is_cheap() -> None:
    """No table creation, no connection, no word list at import time; and no capacity meter nor
    local engine at all (the production data path meters nothing)."""
    probe = (
        "import json, sys\n"
        "import api.lambda_app as m\n"
        "repo = m.app.extensions['service'].ctx.repo\n"
        "import wordlists.store as s\n"
        "print(json.dumps({'client': repo._conn.connection._client is not None,"
        " 'languages': sorted(s._loaded), 'moto': 'moto' in sys.modules,"
        " 'meter': repo.meter is not None,"
        " 'parts': sorted({m.split('.')[2] for m in sys.modules if m.startswith('api.')"
        " and m.count('.') > 1 and m.split('.')[1] in ('storage', 'local')}),"
        " 'metering': sorted(m for m in sys.modules if m.startswith('api.storage.metering.'))"
        "}))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "AWS_DEFAULT_REGION": "us-east-1", "WT_TABLE": "t"}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(done.stdout) == {
        "client": False,
        "languages": [],
        "moto": False,
        "meter": False,
        "parts": [
            "counter_windows",
            "dynamodb",
            "forwarding",
            "keys",
            "layout",
            "metering",
            "records",
            "repository",
        ],
        # DynamoDB's billing arithmetic only: the leaderboards' refresh paces its reads by it.
        "metering": ["api.storage.metering.billing"],
    }


# ---------------------------------------------------------------------------- the lock


def test_the_deploy_lock_satisfies_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"]["deploy"]]
    pins: dict[str, str] = {}
    for line in (INFRA / "requirements-deploy.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = line.split("==")
            pins[name.lower().replace("_", "-")] = version
    for text in wanted:
        requirement = Requirement(text)
        name = requirement.name.lower().replace("_", "-")
        assert name in pins, f"{name} is not pinned in infra/requirements-deploy.txt"
        assert requirement.specifier.contains(pins[name]), (text, pins[name])


def test_the_package_script_reads_the_same_settings() -> None:
    sys.path.insert(0, str(INFRA))
    try:
        import package  # infra/package.py
    finally:
        sys.path.remove(str(INFRA))
    for name in STAGES:
        expected = {k: v for k, v in stage(name).items() if k != "extends"}
        assert package.stage_settings(name) == expected
    assert Path(package.__file__).resolve() == INFRA / "package.py"
