"""The place-fixing transaction stays exactly once when its reply is lost (R16): every such
commit of a whole tournament is applied, its reply lost, and retried by botocore; the service
sees one success, and each player has one history line, statistics counting one tournament and
their rating changed once. On moto and on DynamoDB Local."""

from __future__ import annotations

import pytest

from api.storage.dynamodb.repository import DynamoRepository
from tests.api.checks import assert_final
from tests.api.game import Game
from tests.faults.lost_replies import LostReplies

STORES = pytest.mark.parametrize("repo", ["dynamo", "dynamodb-local"], indirect=True)


@STORES
def test_r16_places_fixed_with_lost_replies_are_recorded_once(
    game: Game, repo: DynamoRepository
) -> None:
    tid, players = game.start_tournament()
    # Only the commits that write history lines (`H#…`): those that fix places.
    lost = LostReplies(repo.client, {"TransactWriteItems"}, count=100, containing=b'"H#')
    final = game.play_to_end(tid, players)
    assert final is not None
    assert lost.lost and all(status == 200 for _, status in lost.lost)
    assert_final(game, tid, players, final)
    for p in players:
        [line] = game.get("/v1/me/history", p).get_json()["entries"]
        assert line["tournament_id"] == tid
        stats = game.get("/v1/me/stats", p).get_json()
        assert stats["tournaments_played"] == 1 and stats["rating"] == line["rating_after"]
