"""A write whose reply is lost is retried by botocore; if it had landed, the retry's failed
condition is recognised as our own write: a success, applied once (api/storage/dynamodb/writes.py).

The replies are lost for real (tests/faults/lost_replies.py): the store applies the request,
botocore sees a read timeout and sends it again. On moto and on DynamoDB Local.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from api.config import Settings
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.records import ClockRecord
from api.storage.repository import Conflict, Delete, Put, Unavailable
from tests.faults.lost_replies import LostReplies
from tests.storage.factories import group, live_tournament, lobby, player

WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems"}


def lose_next(dynamo: DynamoRepository, operation: str) -> LostReplies:
    return LostReplies(dynamo.client, {operation}, count=1)


def assert_retried_once(lost: LostReplies, operation: str) -> None:
    assert lost.lost == [(operation, 200)]  # the store applied the first attempt
    assert lost.sent == [operation, operation]  # and botocore sent it again


def test_a_new_item_whose_reply_was_lost_is_created_once(dynamo: DynamoRepository) -> None:
    lost = lose_next(dynamo, "PutItem")
    dynamo.commit([Put(player("p1"), new=True)])
    assert_retried_once(lost, "PutItem")
    assert dynamo.get_player("p1") == replace(player("p1"), version=1)


def test_a_versioned_put_whose_reply_was_lost_applies_once(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(player("p1"), new=True)])
    read = dynamo.get_player("p1")
    assert read is not None
    lost = lose_next(dynamo, "PutItem")
    dynamo.commit([Put(replace(read, played=7))])
    assert_retried_once(lost, "PutItem")
    stored = dynamo.get_player("p1")
    assert stored is not None and (stored.played, stored.version) == (7, 2)


def test_a_tournament_update_whose_reply_was_lost_applies_once(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(live_tournament("t1"), new=True)])
    read = dynamo.get_tournament("t1")
    assert read is not None
    lost = lose_next(dynamo, "UpdateItem")
    dynamo.commit([Put(replace(read, due=42))])
    assert_retried_once(lost, "UpdateItem")
    stored = dynamo.get_tournament("t1")
    assert stored is not None and (stored.due, stored.version) == (42, 2)


def test_a_delete_whose_reply_was_lost_is_done(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(group("g1"), new=True)])
    read = dynamo.get_group("g1")
    assert read is not None
    lost = lose_next(dynamo, "DeleteItem")
    dynamo.commit([Delete(read)])
    assert_retried_once(lost, "DeleteItem")
    assert dynamo.get_group("g1") is None


def test_a_transaction_whose_reply_was_lost_applies_once(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(player("p1"), new=True), Put(group("g1"), new=True)])
    p1, g1 = dynamo.get_player("p1"), dynamo.get_group("g1")
    assert p1 is not None and g1 is not None
    lost = lose_next(dynamo, "TransactWriteItems")
    dynamo.commit(
        [
            Put(replace(p1, played=1, group_id=None)),
            Delete(g1),
            Put(lobby("l1"), new=True),
            Put(live_tournament("t1"), new=True),
        ]
    )
    assert_retried_once(lost, "TransactWriteItems")
    stored = dynamo.get_player("p1")
    assert stored is not None and (stored.played, stored.version) == (1, 2)
    assert dynamo.get_group("g1") is None
    assert dynamo.get_lobby("l1") == replace(lobby("l1"), version=1)
    tournament = dynamo.get_tournament("t1")
    assert tournament is not None and tournament.version == 1


def test_a_rate_limit_count_whose_reply_was_lost_counts_once(dynamo: DynamoRepository) -> None:
    assert dynamo.count("ip:1", 7, 60_000, 1) == (1, 0)
    lost = lose_next(dynamo, "UpdateItem")
    assert dynamo.count("ip:1", 7, 60_000, 1) == (2, 0)  # the retry saw its own count
    assert_retried_once(lost, "UpdateItem")
    assert dynamo.count("ip:1", 7, 60_000, 1) == (3, 0)  # the lost one counted once


def test_a_heartbeat_whose_reply_was_lost_is_taken_once(dynamo: DynamoRepository) -> None:
    first = ClockRecord(1_000)
    assert dynamo.put_clock(None, first)
    later = ClockRecord(40_000, ((1_000, 40_000),))
    lost = lose_next(dynamo, "PutItem")
    assert dynamo.put_clock(first, later)  # its retry fails its condition on our own beat
    assert_retried_once(lost, "PutItem")
    assert dynamo.get_clock(consistent=True) == later
    assert not dynamo.put_clock(first, ClockRecord(41_000))


def test_a_contact_stamp_whose_reply_was_lost_is_kept(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(player("p1"), new=True)])
    lost = lose_next(dynamo, "UpdateItem")
    dynamo.touch_player("p1", 9_000)
    assert_retried_once(lost, "UpdateItem")
    stored = dynamo.get_player("p1")
    assert stored is not None and (stored.last_contact, stored.version) == (9_000, 1)


def test_a_stale_write_whose_reply_was_lost_still_conflicts(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(player("p1"), new=True), Put(player("p2"), new=True)])
    stale = dynamo.get_player("p1")
    assert stale is not None
    dynamo.commit([Put(replace(stale, rating=1100))])
    lost = LostReplies(dynamo.client, {"PutItem", "TransactWriteItems"}, count=2)
    with pytest.raises(Conflict):
        dynamo.commit([Put(replace(stale, rating=900))])
    p2 = dynamo.get_player("p2")
    assert p2 is not None
    with pytest.raises(Conflict):
        dynamo.commit([Put(replace(stale, rating=900)), Put(replace(p2, played=3))])
    assert [status for _, status in lost.lost] == [400, 400]  # refused, then refused again
    stored, p2_now = dynamo.get_player("p1"), dynamo.get_player("p2")
    assert stored is not None and stored.rating == 1100
    assert p2_now is not None and p2_now.played == 0


def test_a_lost_reply_without_retries_is_unavailable(dynamo_settings: Settings) -> None:
    dynamo = DynamoRepository(dynamo_settings, max_retry_attempts=0)
    dynamo.create_table()
    try:
        lost = lose_next(dynamo, "PutItem")
        with pytest.raises(Unavailable):
            dynamo.commit([Put(player("p1"), new=True)])
        assert lost.sent == ["PutItem"]
    finally:
        dynamo.delete_table()
