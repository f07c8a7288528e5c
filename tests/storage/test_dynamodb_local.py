"""DynamoDB Local under `make run`: it starts, keeps its data across restarts, names itself in
/v1/health, and leaves no java behind after SIGTERM or Ctrl-C."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from api.config import Settings
from api.local.dynamodb_local import CHECKOUT, MEMORY, DynamoDBLocal, DynamoDBLocalError
from api.local.run import local_settings
from api.local.stores import DEFAULT_DATA_DIR, data_dir
from tests.storage.local_stack import Stack


def test_make_run_keeps_players_groups_and_tournaments_across_a_restart(
    tmp_path: Path, stacks: list[Stack]
) -> None:
    data, log = tmp_path / "data", tmp_path / "run.log"
    first = Stack(data, log)
    stacks.append(first)
    assert first.health["store"] == "dynamodb-local"
    assert first.health["table"] == "wordle-tournament"
    assert "store dynamodb-local, table wordle-tournament: DynamoDB Local at" in log.read_text()
    status, bot = first.call("POST", "/v1/players", {"bot": True, "rating": 1234})
    assert status == 201, bot
    players = [first.call("POST", "/v1/players")[1] for _ in range(8)]
    lobby: dict[str, Any] = {}
    for p in players:
        lobby = first.call("POST", "/v1/queue", {"language": "en"}, p["token"])[1]
    tid = lobby["tournament_id"]
    assert tid is not None
    status, group = first.call("POST", "/v1/groups", {"language": "de"}, bot["token"])
    assert status == 201, group
    first.stop(signal.SIGTERM)

    again = Stack(data, log)
    stacks.append(again)
    status, me = again.call("GET", "/v1/me", token=bot["token"])
    assert status == 200 and (me["id"], me["rating"], me["group_id"]) == (
        bot["id"],
        1234,
        group["id"],
    )
    status, state = again.call("GET", f"/v1/tournaments/{tid}/state", token=players[0]["token"])
    assert status == 200 and state["finished_at"] is None  # still live, advancing by time
    status, _ = again.call("GET", f"/v1/groups/{group['id']}", token=bot["token"])
    assert status == 200
    again.stop(signal.SIGINT)  # Ctrl-C


def test_the_data_folder_defaults_to_the_checkout_and_memory_keeps_nothing() -> None:
    assert data_dir(Settings()) == str(DEFAULT_DATA_DIR) == str(CHECKOUT / ".data")
    assert data_dir(Settings(data_dir=MEMORY)) == MEMORY
    assert DynamoDBLocal(MEMORY).in_memory and DynamoDBLocal(None).in_memory
    assert local_settings({}).store == "dynamodb-local"
    assert local_settings({"DYNAMODB_ENDPOINT": "http://x:1"}).store == "dynamodb"
    assert local_settings({"WT_STORE": "moto"}).store == "moto"
    with pytest.raises(ValueError, match="WT_STORE"):
        local_settings({"WT_STORE": "mongo"})


def test_a_missing_dynamodb_local_says_how_to_get_it(tmp_path: Path) -> None:
    with pytest.raises(DynamoDBLocalError, match="make dynamodb-local"):
        DynamoDBLocal(MEMORY, home=tmp_path).start()
