"""Storage by its parts: the in-memory fake needs neither PynamoDB nor botocore, and every key
is spelled in api/storage/keys.py, which needs nothing but the records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def imported_by(statement: str) -> list[str]:
    """The modules (of this project, PynamoDB, botocore) a fresh interpreter loads to run
    `statement`."""
    probe = (
        "import json, sys\n"
        f"{statement}\n"
        "print(json.dumps(sorted(m for m in sys.modules"
        " if m.split('.')[0] in ('api', 'pynamodb', 'botocore', 'boto3'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    found: list[str] = json.loads(done.stdout)
    return found


def test_the_fake_imports_no_dynamodb_adapter_nor_botocore() -> None:
    loaded = imported_by(
        "from api.storage.memory import InMemoryRepository\nInMemoryRepository().get_player('p1')"
    )
    assert not [m for m in loaded if m.startswith(("pynamodb", "botocore", "boto3"))]
    assert not [m for m in loaded if m.startswith(("api.storage.dynamodb", "api.storage.meter"))]


def test_the_keys_are_pure() -> None:
    loaded = imported_by("import api.storage.keys")
    assert loaded == [
        "api",
        "api.storage",
        "api.storage.keys",
        "api.storage.records",
    ]
