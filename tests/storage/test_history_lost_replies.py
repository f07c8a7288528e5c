"""Players' history and statistics survive lost replies (tests/faults/lost_replies.py): the
place-fixing transaction with its history lines and statistics, the refresh claim and a
snapshot's copies are each applied once and answered as done. On moto and on DynamoDB Local."""

from __future__ import annotations

from dataclasses import replace

from api.storage.dynamodb.repository import DynamoRepository
from api.storage.records import StatsRecord
from api.storage.repository import Put
from tests.faults.lost_replies import LostReplies
from tests.storage.factories import (
    NOW,
    board,
    finished_tournament,
    line,
    live_tournament,
    player,
    stats,
)


def test_a_place_fixing_transaction_whose_reply_was_lost_applies_once(
    dynamo: DynamoRepository,
) -> None:
    dynamo.commit([Put(live_tournament("t1"), new=True), Put(player("p1"), new=True)])
    dynamo.commit([Put(StatsRecord("p2", stats()), new=True), Put(player("p2"), new=True)])
    t1, p1, p2 = dynamo.get_tournament("t1"), dynamo.get_player("p1"), dynamo.get_player("p2")
    [s2] = dynamo.get_stats(["p2"])
    assert t1 is not None and p1 is not None and p2 is not None
    lost = LostReplies(dynamo.client, {"TransactWriteItems"}, count=1)
    dynamo.commit(
        [
            Put(replace(t1, tournament=finished_tournament("t1").tournament, due=None)),
            Put(replace(p1, rating=1018, played=1)),
            Put(line("p1", "t1", NOW), new=True),
            Put(StatsRecord("p1", stats(results=1)), new=True),
            Put(replace(p2, rating=975, played=4)),
            Put(line("p2", "t1", NOW), new=True),
            Put(replace(s2, stats=stats(results=4))),
        ]
    )
    assert lost.lost == [("TransactWriteItems", 200)]
    assert lost.sent == ["TransactWriteItems", "TransactWriteItems"]
    assert [r.result.tournament_id for r in dynamo.history("p1", 5)] == ["t1"]
    assert [r.result.tournament_id for r in dynamo.history("p2", 5)] == ["t1"]
    [n1, n2] = dynamo.get_stats(["p1", "p2"])
    assert (n1.version, n1.stats.played, n2.version, n2.stats.played) == (1, 1, 2, 4)
    stored = dynamo.get_tournament("t1")
    assert stored is not None and stored.version == 2


def test_a_refresh_claim_whose_reply_was_lost_is_still_ours(dynamo: DynamoRepository) -> None:
    lost = LostReplies(dynamo.client, {"UpdateItem"}, count=1)
    assert dynamo.claim_refresh(NOW, 60_000)
    assert lost.lost == [("UpdateItem", 200)]
    assert not dynamo.claim_refresh(NOW + 1, 60_000)


def test_a_snapshot_whose_reply_was_lost_is_stored(dynamo: DynamoRepository) -> None:
    snapshot = board(NOW, top=100)
    lost = LostReplies(dynamo.client, {"PutItem"}, count=4)
    dynamo.save_board(snapshot)  # the retry of each copy finds itself there: done
    assert [status for _, status in lost.lost] == [200] * 4
    assert dynamo.get_board(snapshot.name) == snapshot
