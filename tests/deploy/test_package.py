"""What we ship is what we test: `infra/package.py` (what `make package` runs) builds the zip
with zappa, and zappa's own Lambda handler, from that zip unpacked into a clean directory,
serves API Gateway v2 requests and the scheduled sweep against an embedded moto DynamoDB.

Slow (a virtualenv on first run, then about 20 s a build): the package is built twice, once per
module, to check that it is byte for byte reproducible.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.config import Settings
from api.local.moto_server import MotoServer
from api.storage.dynamodb.repository import DynamoRepository
from tests.deploy.conftest import INFRA, ROOT

# What the Lambda runtime provides and the package leaves out (zappa's `exclude`).
RUNTIME_PROVIDED = ("boto3", "botocore", "s3transfer", "jmespath", "dateutil", "six.py", "urllib3")
TABLE = "wordle-tournament-dev"  # WT_TABLE of the dev stage


def build(output: Path) -> Path:
    done = subprocess.run(
        [sys.executable, str(INFRA / "package.py"), "--stage", "dev", "--output", str(output)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return output


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("dist") / "wordle-tournament-dev.zip")


@pytest.fixture(scope="module")
def unpacked(package: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("var-task")
    with zipfile.ZipFile(package) as z:
        z.extractall(target)
    return target


@pytest.fixture(scope="module")
def runtime(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Lambda's own copy of boto3 and friends: the deploy venv's, linked into a clean folder."""
    site = next((ROOT / "build" / "venv-deploy" / "lib").glob("python3.*/site-packages"))
    target = tmp_path_factory.mktemp("var-runtime")
    for name in RUNTIME_PROVIDED:
        (target / name).symlink_to(site / name)
    return target


@pytest.fixture(scope="module")
def endpoint() -> Iterator[str]:
    server = MotoServer()  # one of its own, stopped with this module
    url = server.endpoint
    settings = Settings(table_name=TABLE, dynamodb_endpoint=url, region="us-east-1")
    DynamoRepository(settings).create_table()
    yield url
    server.stop()


def drive(
    unpacked: Path,
    runtime: Path,
    endpoint: str,
    mode: tuple[str, ...] = (),
    timers: dict[str, str] | None = None,
) -> tuple[dict[str, Any], str]:
    """The driver's run (`mode`: see lambda_driver.py) with `timers` (None: the short ones)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "LANG": "C.UTF-8",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_LAMBDA_FUNCTION_NAME": "wordle-tournament-dev",
        "DYNAMODB_ENDPOINT": endpoint,
        "WT_TABLE": TABLE,
        "PYTHONDONTWRITEBYTECODE": "1",  # /var/task is read-only on Lambda
    }
    short = {
        "WT_INTRO_SECONDS": "0.05",
        "WT_TURN_SECONDS": "1",  # the shortest turn the settings accept
        "WT_RATE_LIMITS": "0",
    }
    env.update(short if timers is None else timers)
    driver = Path(__file__).with_name("lambda_driver.py")
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(driver), str(unpacked), str(runtime), *mode],
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.fixture(scope="module")
def played(unpacked: Path, runtime: Path, endpoint: str) -> tuple[dict[str, Any], str]:
    return drive(unpacked, runtime, endpoint)


def test_the_package_holds_the_app_and_not_what_the_runtime_provides(package: Path) -> None:
    with zipfile.ZipFile(package) as z:
        names = set(z.namelist())
        settings = z.read("zappa_settings.py").decode()
    for needed in ("handler.py", "zappa/handler.py", "api/lambda_app.py", "scheduler/handler.py"):
        assert needed in names
    assert any(n.startswith("wordlists/data/") for n in names)
    assert any(n.startswith("api/web/static/") for n in names)
    tops = {n.split("/")[0] for n in names}
    assert not tops & {"boto3", "botocore", "s3transfer", "pip", "setuptools", "troposphere"}
    assert not any("/builder/" in n or n.endswith(".cpython-311.pyc") for n in names)
    assert "APP_MODULE='api.lambda_app'" in settings
    assert "APP_FUNCTION='app'" in settings
    assert "API_STAGE='dev'" in settings
    assert package.stat().st_size <= 15_000_000


def test_the_package_is_reproducible(package: Path, tmp_path: Path) -> None:
    again = build(tmp_path / "again.zip")
    with zipfile.ZipFile(package) as first, zipfile.ZipFile(again) as second:
        differ = sorted(
            name
            for name in set(first.namelist()) | set(second.namelist())
            if name not in first.namelist()
            or name not in second.namelist()
            or first.read(name) != second.read(name)
        )
    assert differ == []  # a source file edited between the two builds shows up here
    assert sha256(again) == sha256(package)


def test_http_api_requests_reach_the_app(played: tuple[dict[str, Any], str]) -> None:
    result, _ = played
    assert result["health"]["status"] == 200
    assert result["health"]["json"]["status"] == "ok"
    player = result["player"]
    assert player["status"] == 201
    assert player["json"]["token"]
    me = result["me"]
    assert me["status"] == 200
    assert me["json"]["id"] == player["json"]["id"]
    assert me["headers"]["X-Request-Id"]
    assert result["me_anonymous"]["status"] == 401
    assert result["me_anonymous"]["json"]["error"]["code"] == "unauthorized"
    index = result["index"]  # the browser client, as text (binary_support leaves text alone)
    assert index["status"] == 200
    assert index["base64"] is False
    assert "<html" in index["text"].lower()
    assert result["queue"] == [201] * 8


def test_the_scheduled_event_runs_the_sweep(played: tuple[dict[str, Any], str]) -> None:
    result, _ = played
    assert {"due", "advanced"} <= set(result["sweep_now"])
    assert result["sweep_due"]["due"] >= 1
    assert result["sweep_due"]["advanced"] >= 1


@pytest.fixture(scope="module")
def alone(unpacked: Path, runtime: Path, endpoint: str) -> dict[str, Any]:
    """D18 through the handler: the deployed timers and fill, the sweep once a minute."""
    result, _ = drive(unpacked, runtime, endpoint, ("solo", "kk"), timers={})
    return result


FILL_MS = 15_000  # WT_BOT_FILL_SECONDS' default, as deployed


def test_d18_on_lambda_a_person_alone_gets_seven_bots_within_the_fill_time_and_5_s(
    alone: dict[str, Any],
) -> None:
    """API Gateway events and the minutely scheduled event only: the queue's own polls start
    the tournament when the queue said, with seven marked bots."""
    assert alone["bots_at"] == alone["queued_at"] + FILL_MS
    assert alone["created_at"] == alone["bots_at"]  # D10: as of when it was due
    assert alone["seen_started"] - alone["queued_at"] <= FILL_MS + 5_000
    assert alone["marked_bots"] == 7


def test_d18_on_lambda_the_person_plays_to_the_end_with_no_late_turn(
    alone: dict[str, Any],
) -> None:
    assert alone["turns"] > 0 and alone["late_turns"] == [] and alone["unplayed_turns"] == 0
    assert alone["refused"] == [] and alone["moved_on"] == []
    # While the person played, no quiet moment was taken for an outage (which would pause the
    # game, api/service/outages.py); once they stopped polling, the minutes between sweeps are.
    assert all(end > alone["out_at"] for _, end in alone["outages"])


def test_d18_on_lambda_the_bots_left_alone_end_it_by_the_sweep(alone: dict[str, Any]) -> None:
    assert alone["finished_at"] is not None and None not in alone["places"]
    assert alone["bots_free"] == [True] * 7 and len(alone["history"]) == 1
    assert len(alone["sweeps"]) >= 2 and any(s["filled"] == 0 for s in alone["sweeps"])
    assert sum(s["advanced"] for s in alone["sweeps"]) >= 1  # some of it the sweep's alone


def test_the_code_comes_from_the_package(
    played: tuple[dict[str, Any], str], unpacked: Path, runtime: Path
) -> None:
    result, _ = played
    origins = result["origins"]
    for name in ("handler", "flask", "pynamodb", "api"):
        assert origins[name].startswith(str(unpacked)), (name, origins[name])
    assert origins["boto3"].startswith(str(runtime))
    assert result["loaded_languages"] == ["en"]  # a word list loads when a game needs it


def test_logs_are_json_lines_with_the_request_id(played: tuple[dict[str, Any], str]) -> None:
    """A request that changes something has its line (successful reads are sampled)."""
    result, stderr = played
    request_id = result["player"]["headers"]["X-Request-Id"]
    lines = [json.loads(line) for line in stderr.splitlines() if line.startswith("{")]
    mine = [entry for entry in lines if entry.get("request_id") == request_id]
    assert len(mine) == 1
    assert mine[0]["path"] == "/v1/players"
    assert mine[0]["status"] == 201
