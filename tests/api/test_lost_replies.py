"""A write whose reply is lost and that botocore retries must not answer 500 nor leave an orphan:
the service sees one successful write (tests/storage/test_lost_replies.py has the mechanics)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from api.storage.dynamodb.repository import DynamoRepository
from tests.api.clock import FakeClock
from tests.api.conftest import TIMING
from tests.api.game import Game
from tests.api.words import fillers
from tests.faults.lost_replies import LostReplies

STORES = pytest.mark.parametrize("repo", ["dynamo", "dynamodb-local"], indirect=True)
WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"}


def _players_stored(repo: DynamoRepository) -> list[str]:
    items = repo.client.scan(TableName=repo.table_name)["Items"]
    return [i["pk"]["S"][2:] for i in items if i["pk"]["S"].startswith("P#")]


@STORES
def test_r25_a_player_whose_write_reply_was_lost_is_created_once(
    client: FlaskClient, repo: DynamoRepository
) -> None:
    # The rate-limit counts (the route's, sampled; the address's, network's, /16's and
    # everyone's creations) and the player.
    lost = LostReplies(repo.client, WRITES, count=10)
    r = client.post("/v1/players")
    assert r.status_code == 201, r.get_json()
    ops = [op for op, status in lost.lost]
    assert ops[-1] == "PutItem" and ops[:-1] in (["UpdateItem"] * 4, ["UpdateItem"] * 5), ops
    assert all(status == 200 for _, status in lost.lost)
    body = r.get_json()
    assert _players_stored(repo) == [body["id"]]  # no orphan
    me = client.get("/v1/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.status_code == 200 and me.get_json()["id"] == body["id"]


@STORES
def test_r10_a_guess_whose_write_reply_was_lost_is_played_once(
    game: Game, clock: FakeClock, repo: DynamoRepository
) -> None:
    tid, players = game.start_tournament()
    clock.advance(TIMING.intro_ms)
    duel = game.stored(tid).round.duels[0]
    who = next(p for p in players if p.id == duel.to_play)
    word = fillers("en", len(duel.secret))[0]
    before = game.record(tid).version
    lost = LostReplies(repo.client, WRITES, count=10)
    r = game.post(
        f"/v1/tournaments/{tid}/guesses", who, json={"row": 0, "word": word, "duel": duel.id}
    )
    assert r.status_code == 200, r.get_json()
    assert ("UpdateItem", 200) in lost.lost
    played = game.duel(tid, duel.id).turns
    assert [("".join(t.word or ()), t.player) for t in played] == [(word, who.id)]
    assert game.record(tid).version == before + 1
