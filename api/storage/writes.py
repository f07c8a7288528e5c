"""Conditional writes for the repository's commit, and how a retried one knows it had landed.

A write whose reply is lost (a read timeout, a dropped connection, a 500) is sent again by
botocore: PynamoDB's default retry configuration ("LEGACY") gives botocore's *standard* mode
`total_max_attempts = 1 + max_retry_attempts`, and standard mode retries connection and HTTP
client errors (a read timeout is one), 500/502/503/504 and throttling (pynamodb/connection/
base.py, botocore/retries/standard.py). If the first attempt had in fact been applied, the
retry's condition fails (the version moved on, the new item exists): reported as a conflict, the
caller would redo or refuse work that is done (an orphan player, a 500).

So every commit carries a write id, stored in the `w` attribute of each item it puts or updates,
and asks for the item as it was when a condition fails (ReturnValuesOnConditionCheckFailure
ALL_OLD, which costs no extra read). A failed condition whose old item carries our own write id
is our write, already applied: a success. Transactions also send the id as ClientRequestToken, so
DynamoDB itself answers a retry within 10 minutes with the original outcome. A delete leaves no
item to recognise: a retried commit of deletes only whose items are all gone counts as applied.
Writes that are idempotent by nature (`touch`, `reschedule`) need none of this.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.update import Action

from api.storage.dynamo_errors import botocore_response
from api.storage.items import (
    Item,
    TournamentItem,
    pack_tournament,
    record_key,
    to_item,
    tournament_item,
)
from api.storage.meter import item_size, write_units
from api.storage.records import TournamentRecord
from api.storage.repository import Delete, Write
from api.storage.table import ACTIVE_ATTRIBUTES, due_shard

ALL_OLD = {"ReturnValuesOnConditionCheckFailure": "ALL_OLD"}
KINDS = ("Delete", "Put", "Update")  # the order in which PynamoDB lists a transaction's items


def new_write_id() -> str:
    """72 random bits, 12 characters: also a valid ClientRequestToken."""
    return secrets.token_urlsafe(9)


@dataclass(frozen=True, slots=True)
class Op:
    """One write, ready for a single call or a transaction."""

    kind: str  # "Put", "Update" or "Delete"
    kwargs: dict[str, Any]
    pk: str
    size: int  # of the item as stored afterwards (before, for a delete)
    index_units: float  # extra write units for sparse-index entries


def op_write_units(ops: Sequence[Op], transactional: bool, *, index: bool) -> float:
    units = sum(write_units(op.size, transactional=transactional) for op in ops)
    return units + (sum(op.index_units for op in ops) if index else 0.0)


def _index_units(pk: str, attrs: dict[str, Any], new: bool) -> float:
    """Write units for the index entries a base write causes (an estimate).

    An item carrying an index key writes its projection there (an open lobby sits in both
    indexes); an existing tournament or lobby written without one may be leaving the index,
    which is a delete there (1 unit).
    """
    units = 0.0
    if "dk" in attrs:
        keys_only = {name: attrs[name] for name in ("pk", "dk", "dd")}
        units += write_units(item_size(keys_only))
    if "ok" in attrs or "hp" in attrs:  # projections ALL
        units += write_units(item_size(attrs))
    if "ak" in attrs:  # a new last finish moves the entry: a delete there, then a put
        projected = {name: attrs[name] for name in ("pk", "ak", "lp", *ACTIVE_ATTRIBUTES)}
        units += write_units(item_size(projected)) * (1 if new else 2)
    if not units and not new and pk[:2] in ("T#", "L#"):
        return 1.0
    return units


class SizeCache:
    """Last known item sizes of tournaments and lobbies, to meter updates that do not read the
    item."""

    def __init__(self, capacity: int = 4096) -> None:
        self._lock = threading.Lock()
        self._sizes: OrderedDict[str, int] = OrderedDict()
        self._capacity = capacity

    def get(self, pk: str, default: int) -> int:
        with self._lock:
            return self._sizes.get(pk, default)

    def put(self, pk: str, size: int) -> None:
        with self._lock:
            self._sizes[pk] = size
            self._sizes.move_to_end(pk)
            if len(self._sizes) > self._capacity:
                self._sizes.popitem(last=False)

    def drop(self, pk: str) -> None:
        with self._lock:
            self._sizes.pop(pk, None)


def due_actions(tournament_id: str, due: int | None) -> list[Action]:
    if due is None:
        return [TournamentItem.dk.remove(), TournamentItem.dd.remove()]
    return [TournamentItem.dk.set(due_shard(tournament_id)), TournamentItem.dd.set(due)]


def operation(conn: TableConnection, sizes: SizeCache, write: Write, write_id: str) -> Op:
    """The conditional Put, Update or Delete for one write of a commit."""
    record = write.record
    pk = record_key(record)
    stored = Item.v == record.version
    if isinstance(write, Delete):
        attrs = to_item(record, record.version).serialize()
        kwargs = conn.get_operation_kwargs(pk, condition=stored) | ALL_OLD
        return Op("Delete", kwargs, pk, item_size(attrs), _index_units(pk, attrs, False))
    version = 1 if write.new else record.version + 1
    if isinstance(record, TournamentRecord) and not write.new:
        return _tournament_update(conn, sizes, record, pk, version, stored, write_id)
    # A new tournament starts with an empty contact map: touch() sets paths inside it.
    attrs = to_item(record, version, contacts={}, write_id=write_id).serialize()
    condition = Item.pk.does_not_exist() if write.new else stored
    kwargs = conn.get_operation_kwargs(pk, key="Item", attributes=attrs, condition=condition)
    return Op("Put", kwargs | ALL_OLD, pk, item_size(attrs), _index_units(pk, attrs, write.new))


def _tournament_update(
    conn: TableConnection,
    sizes: SizeCache,
    record: TournamentRecord,
    pk: str,
    version: int,
    condition: Condition,
    write_id: str,
) -> Op:
    """An existing tournament: SET state, version, write id and due, leaving touch()'s map."""
    state = pack_tournament(record)
    actions = [
        TournamentItem.s.set(state),
        TournamentItem.v.set(version),
        TournamentItem.w.set(write_id),
        *due_actions(record.id, record.due),
    ]
    kwargs = conn.get_operation_kwargs(pk, actions=actions, condition=condition) | ALL_OLD
    attrs = tournament_item(record, version, state, dict(record.contacts), write_id).serialize()
    size = max(item_size(attrs), sizes.get(pk, 0))
    return Op("Update", kwargs, pk, size, _index_units(pk, attrs, False))


def written_by(old: dict[str, Any] | None, write_id: str) -> bool:
    """Whether an item (DynamoDB's wire format) was last written with `write_id`."""
    return old is not None and old.get("w", {}).get("S") == write_id


def landed(exc: BaseException, kinds: Sequence[str], write_id: str) -> bool:
    """Whether a write or transaction that failed its condition had in fact been applied by an
    earlier attempt of the same call (see the module's docstring). `kinds` are its operations'
    kinds, in the order sent."""
    response = botocore_response(exc)
    code = response.get("Error", {}).get("Code")
    failed = "ConditionalCheckFailed"
    if code == "ConditionalCheckFailedException":
        reasons: list[dict[str, Any]] = [{"Code": failed, "Item": response.get("Item")}]
    elif code == "TransactionCanceledException":
        reasons = response.get("CancellationReasons", [])
    else:
        return False
    if len(reasons) != len(kinds):
        return False
    if any(written_by(r.get("Item"), write_id) for r in reasons):
        return True
    retried = response.get("ResponseMetadata", {}).get("RetryAttempts", 0) > 0
    return retried and all(
        kind == "Delete" and r.get("Code") == failed and r.get("Item") is None
        for kind, r in zip(kinds, reasons, strict=True)
    )
