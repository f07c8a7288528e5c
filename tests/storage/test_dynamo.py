"""DynamoDB only: the table, what each call costs, failures and concurrent writers."""

from __future__ import annotations

import socket
import tempfile
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest
from botocore.exceptions import (  # type: ignore[import-untyped]
    ClientError,
    EndpointConnectionError,
    ReadTimeoutError,
)

from api.cli import main
from api.config import Settings
from api.local.dynamodb_local import DynamoDBLocal
from api.storage.dynamodb.errors import add_hint, remove_hint, translate
from api.storage.dynamodb.items import to_item
from api.storage.dynamodb.repository import DynamoRepository, create_table
from api.storage.dynamodb.schema import table_definition
from api.storage.dynamodb.writes import new_write_id
from api.storage.layout import Layout
from api.storage.metering.billing import item_size
from api.storage.records import LobbyRecord, PlayerRecord
from api.storage.repository import (
    DISK_FULL,
    STORE_FAILED,
    TABLE_MISSING,
    THROTTLED,
    UNREACHABLE,
    Conflict,
    Put,
    Rejected,
    StorageError,
    Unavailable,
)
from core.lobby import Lobby
from tests.storage.factories import finished_tournament, live_tournament, lobby, player

KB = 1024
DUE_SHARDS = Layout().due_shards


def _player_of_size(pid: str, size: int) -> PlayerRecord:
    """A player whose stored item is exactly `size` bytes."""
    bare = player(pid, nickname="")
    overhead = item_size(to_item(bare, 1, write_id=new_write_id()).serialize())
    return replace(bare, nickname="x" * (size - overhead))


# ---------------------------------------------------------------------------- the table


def test_the_table_matches_its_definition(dynamo: DynamoRepository) -> None:
    described = dynamo._conn.describe_table()
    wanted = table_definition(dynamo.table_name)
    assert described["KeySchema"] == wanted["KeySchema"]
    indexes = {i["IndexName"]: i for i in described["GlobalSecondaryIndexes"]}
    for index in wanted["GlobalSecondaryIndexes"]:
        assert indexes[index["IndexName"]]["KeySchema"] == index["KeySchema"]
        assert indexes[index["IndexName"]]["Projection"] == index["Projection"]
    assert not dynamo.create_table()  # idempotent


def test_db_create_command(
    dynamo_settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert dynamo_settings.dynamodb_endpoint is not None
    monkeypatch.setenv("WT_TABLE", dynamo_settings.table_name)
    monkeypatch.setenv("DYNAMODB_ENDPOINT", dynamo_settings.dynamodb_endpoint)
    assert main(["db", "create"]) == 0
    assert main(["db", "create"]) == 0
    out = capsys.readouterr().out
    assert "created" in out and "already exists" in out
    DynamoRepository(dynamo_settings).delete_table()


def test_a_finished_tournament_fits_one_read_unit() -> None:
    record = finished_tournament("t-finished", seed=3)
    contacts = {p.id: 1_700_000_000_000 for p in record.tournament.players}
    item = to_item(record, 9, contacts).serialize()
    assert len(item["s"]["B"]) < 2 * KB
    assert item_size(item) < 4 * KB


# ---------------------------------------------------------------------------- units


def test_a_5_kb_write_costs_5_units_and_10_in_a_transaction(dynamo: DynamoRepository) -> None:
    with dynamo.meter.scope() as alone:
        dynamo.commit([Put(_player_of_size("big", 5 * KB), new=True)])
    assert alone.total.write_units == 5.0
    with dynamo.meter.scope() as together:
        dynamo.commit([Put(_player_of_size("big2", 5 * KB), new=True), Put(player("p"), new=True)])
    assert together.total.write_units == 10.0 + 2.0


def test_strong_reads_cost_one_unit_per_4_kb(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(_player_of_size("p3", 3 * KB), new=True)])
    dynamo.commit([Put(_player_of_size("p5", 5 * KB), new=True)])
    for pid, units in (("p3", 1.0), ("p5", 2.0), ("missing", 1.0)):
        with dynamo.meter.scope() as used:
            dynamo.get_player(pid)
        assert used.total.read_units == units
    with dynamo.meter.scope() as used:
        dynamo.get_players(["p3", "p5", "missing"])
    assert used.total.read_units == 4.0


def test_a_failed_condition_is_still_billed(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(player("p1"), new=True)])
    with dynamo.meter.scope() as used, pytest.raises(Conflict):
        dynamo.commit([Put(player("p1"), new=True)])
    assert used.total.write_units == 1.0


def test_tournament_writes_are_billed_on_the_whole_item(dynamo: DynamoRepository) -> None:
    record = finished_tournament("t1")
    record = replace(record, due=5)  # still in the sweep's index
    with dynamo.meter.scope() as created:
        dynamo.commit([Put(record, new=True)])
    read = dynamo.get_tournament("t1")
    assert read is not None
    size = item_size(to_item(read, 1, {}).serialize())
    blocks = -(-size // KB)
    assert created.total.write_units == blocks + 1  # + the index entry
    with dynamo.meter.scope() as touched:
        dynamo.touch("t1", "p1", 7)
    assert touched.total.write_units == blocks  # an update pays for the whole item
    with dynamo.meter.scope() as finished:
        dynamo.commit([Put(replace(read, due=None))])
    assert finished.total.write_units == blocks + 1  # + leaving the index


def test_queries_cost_half_a_unit_per_partition(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(live_tournament("t1"), new=True), Put(lobby("l1"), new=True)])
    with dynamo.meter.scope() as sweep:
        dynamo.due_tournaments(10**15, 50)
    assert (sweep.total.calls, sweep.total.read_units) == (DUE_SHARDS, DUE_SHARDS * 0.5)
    with dynamo.meter.scope() as matchmaking:
        dynamo.open_lobbies("en", 1000, 200)  # bands 4, 5 and 6
    assert (matchmaking.total.calls, matchmaking.total.read_units) == (3, 1.5)


# ---------------------------------------------------------------------------- failures


def _unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_endpoint_is_unavailable() -> None:
    settings = Settings(table_name="t", dynamodb_endpoint=f"http://127.0.0.1:{_unused_port()}")
    repo = DynamoRepository(settings, connect_timeout=0.5, read_timeout=0.5, max_retry_attempts=0)
    with pytest.raises(Unavailable) as caught:
        repo.ping()
    assert caught.value.retry_after > 0
    with pytest.raises(Unavailable):
        repo.get_player("p1")
    with pytest.raises(Unavailable):
        repo.commit([Put(player("p1"), new=True)])
    with pytest.raises(Unavailable):
        repo.touch("t1", "p1", 5)  # not swallowed like a failed condition
    with pytest.raises(Unavailable):
        create_table(settings, timeout=1)


def test_a_missing_table_is_unavailable(dynamo_settings: Settings) -> None:
    repo = DynamoRepository(dynamo_settings)  # the table was never created
    with pytest.raises(Unavailable):
        repo.ping()
    with pytest.raises(Unavailable):
        repo.get_tournament("t1")


# ---------------------------------------------------------------------------- concurrency


def test_concurrent_read_modify_commit_loses_no_update(dynamo: DynamoRepository) -> None:
    dynamo.commit([Put(player("p1"), new=True)])
    threads, increments = 6, 8
    conflicts = 0
    lock = threading.Lock()

    def increment() -> None:
        nonlocal conflicts
        while True:
            current = dynamo.get_player("p1")
            assert current is not None
            try:
                dynamo.commit([Put(replace(current, played=current.played + 1))])
                return
            except Conflict:
                with lock:
                    conflicts += 1

    def worker() -> None:
        for _ in range(increments):
            increment()

    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    stored = dynamo.get_player("p1")
    assert stored is not None
    assert stored.played == threads * increments
    assert stored.version == 1 + threads * increments
    assert conflicts > 0  # the writers did collide


def _client_error(code: str, reasons: tuple[str, ...] = ()) -> ClientError:
    response: dict[str, Any] = {"Error": {"Code": code, "Message": "..."}}
    if reasons:
        response["CancellationReasons"] = [{"Code": r} for r in reasons]
    return ClientError(response, "TransactWriteItems")


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (_client_error("ConditionalCheckFailedException"), Conflict),
        (
            _client_error("TransactionCanceledException", ("None", "ConditionalCheckFailed")),
            Conflict,
        ),
        (_client_error("TransactionCanceledException", ("TransactionConflict",)), Conflict),
        (_client_error("TransactionCanceledException", ("ThrottlingError",)), Unavailable),
        (_client_error("ProvisionedThroughputExceededException"), Unavailable),
        (_client_error("ThrottlingException"), Unavailable),
        (_client_error("InternalServerError"), Unavailable),
        (_client_error("ResourceNotFoundException"), Unavailable),
        (EndpointConnectionError(endpoint_url="http://x"), Unavailable),
        (_client_error("ValidationException"), Rejected),
        (_client_error("SomethingUnknown"), StorageError),
    ],
)
def test_errors_are_translated(error: Exception, kind: type[StorageError]) -> None:
    translated = translate(error)
    assert type(translated) is kind


# DynamoDB Local 3.3.0's answer to a PutItem on a full disk, captured for real (its data folder
# on a 2 MB tmpfs); its output said `[13] DB[1] step() [INSERT OR REPLACE INTO ...] [database or
# disk is full]` (SQLITE_FULL), which tests/storage/test_store_heals.py meets for real too.
DISK_FULL_REPLY = {
    "Error": {
        "Message": "The request processing has failed because of an unknown error, exception "
        "or failure.",
        "Code": "InternalFailure",
    },
    "ResponseMetadata": {"HTTPStatusCode": 500, "MaxAttemptsReached": True, "RetryAttempts": 2},
}


@pytest.mark.parametrize(
    ("error", "cause", "retry_after"),
    [
        (EndpointConnectionError(endpoint_url="http://x"), UNREACHABLE, 2),
        (ReadTimeoutError(endpoint_url="http://x"), UNREACHABLE, 2),
        (_client_error("ProvisionedThroughputExceededException"), THROTTLED, 1),
        (_client_error("ThrottlingException"), THROTTLED, 1),
        (_client_error("TransactionCanceledException", ("ThrottlingError",)), THROTTLED, 1),
        (_client_error("InternalServerError"), STORE_FAILED, 1),
        (ClientError(DISK_FULL_REPLY, "PutItem"), STORE_FAILED, 1),
        (_client_error("ResourceNotFoundException"), TABLE_MISSING, 30),
    ],
)
def test_an_unavailable_store_says_why(error: Exception, cause: str, retry_after: int) -> None:
    found = translate(error)
    assert isinstance(found, Unavailable)
    assert (found.cause, found.retry_after) == (cause, retry_after)


def test_a_store_failure_is_a_full_disk_when_the_local_store_says_so() -> None:
    """A bare 500 is the store's own failure, unless a hint (the local stack's DynamoDB Local,
    reading its output and its data folder's free space) says the disk is full."""
    full = [False]

    def hint() -> str | None:
        return DISK_FULL if full[0] else None

    add_hint(hint)
    try:
        error = ClientError(DISK_FULL_REPLY, "PutItem")
        assert cast(Unavailable, translate(error)).cause == STORE_FAILED
        full[0] = True
        found = cast(Unavailable, translate(error))
        assert (found.cause, found.retry_after) == (DISK_FULL, 30)
        assert "disk is full" in str(found)
        # Only a store's own failure: throttling stays throttling.
        assert cast(Unavailable, translate(_client_error("ThrottlingException"))).cause == THROTTLED
    finally:
        remove_hint(hint)
    assert cast(Unavailable, translate(error)).cause == STORE_FAILED


def test_dynamodb_locals_output_and_free_space_name_a_full_disk(tmp_path: Path) -> None:
    """How the local stack's hint decides (api/local/dynamodb_local.py), on a child whose
    output is DynamoDB Local's line for SQLITE_FULL."""
    local = DynamoDBLocal(tmp_path)
    assert not local.disk_full()  # nothing said, and room to spare
    local._log = tempfile.TemporaryFile()  # noqa: SIM115 - closed by _reap
    try:
        local._log.write(b"WARNING: [sqlite] job exception\n[13] DB[1] step() [INSERT OR "
                         b"REPLACE INTO ...] [database or disk is full]\n")  # fmt: skip
        local._log.flush()
        assert local.disk_full()
        assert local.disk_full()  # remembered for a while: the next 500 is the same cause
    finally:
        local._reap()


# ---------------------------------------------------------------------------- lobby items


def test_closed_lobbies_expire_by_ttl_and_leave_both_indexes(dynamo: DynamoRepository) -> None:
    created = 1_700_000_000_500
    waiting = replace(lobby("open", created_at=created), due=created + 2_000)
    started = lobby("started", ratings=(1000,) * 8, created_at=created, tournament_id="t1")
    merged = LobbyRecord(Lobby("merged", "en", created), moved_to="open")
    topped_up = replace(lobby("gave", created_at=created), moved_to="started")  # still open
    dynamo.commit([Put(r, new=True) for r in (waiting, started, merged, topped_up)])

    def raw(lobby_id: str) -> dict[str, Any]:
        item: dict[str, Any] = dynamo._conn.get_item("L#" + lobby_id)["Item"]
        return item

    listed = raw("open")
    assert listed["ok"] == {"S": "O#en#5"} and listed["of"] == {"S": f"7#{created:015d}"}
    assert listed["dk"]["S"].startswith("DL#") and listed["dd"] == {"N": str(created + 2_000)}
    assert "x" not in listed and "x" not in raw("gave") and "ok" in raw("gave")
    day_later = str(1_700_000_001 + 86_400)  # cleanup only: a day after the lobby opened
    for closed in (raw("started"), raw("merged")):
        assert closed["x"] == {"N": day_later}
        assert not {"ok", "of", "dk", "dd"} & set(closed)
