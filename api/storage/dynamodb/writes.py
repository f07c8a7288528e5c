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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.update import Action

from api.storage import keys
from api.storage.dynamodb.errors import botocore_response
from api.storage.dynamodb.item_base import Item
from api.storage.dynamodb.items import TournamentItem, pack_tournament, to_item, tournament_item
from api.storage.layout import Layout
from api.storage.records import TournamentRecord
from api.storage.repository import Delete, Write

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
    new: bool  # there is no item yet
    # The item (wire format) as the write leaves it, or a delete finds it: built only for an
    # observer that asks (api/storage/dynamodb/observer.py).
    image: Callable[[], dict[str, Any]]


def due_actions(tournament_id: str, due: int | None, layout: Layout) -> list[Action]:
    if due is None:
        return [TournamentItem.due_key.remove(), TournamentItem.due.remove()]
    shard = layout.due_key(tournament_id)
    return [TournamentItem.due_key.set(shard), TournamentItem.due.set(due)]


def operation(conn: TableConnection, write: Write, write_id: str, layout: Layout) -> Op:
    """The conditional Put, Update or Delete for one write of a commit."""
    record = write.record
    pk = keys.record_key(record)
    stored = Item.version == record.version
    if isinstance(write, Delete):
        kwargs = conn.get_operation_kwargs(pk, condition=stored) | ALL_OLD

        def found() -> dict[str, Any]:
            attrs: dict[str, Any] = to_item(record, record.version, layout=layout).serialize()
            return attrs

        return Op("Delete", kwargs, pk, False, found)
    version = 1 if write.new else record.version + 1
    if isinstance(record, TournamentRecord) and not write.new:
        return _tournament_update(conn, record, pk, version, stored, write_id, layout)
    # A new tournament starts with an empty contact map: touch() sets paths inside it.
    attrs = to_item(record, version, contacts={}, write_id=write_id, layout=layout).serialize()
    condition = Item.key.does_not_exist() if write.new else stored
    kwargs = conn.get_operation_kwargs(pk, key="Item", attributes=attrs, condition=condition)
    return Op("Put", kwargs | ALL_OLD, pk, write.new, lambda: attrs)


def _tournament_update(
    conn: TableConnection,
    record: TournamentRecord,
    pk: str,
    version: int,
    condition: Condition,
    write_id: str,
    layout: Layout,
) -> Op:
    """An existing tournament: SET state, version, write id and due, leaving touch()'s map."""
    state = pack_tournament(record)
    actions = [
        TournamentItem.state.set(state),
        TournamentItem.version.set(version),
        TournamentItem.write_id.set(write_id),
        *due_actions(record.id, record.due, layout),
    ]
    if record.rating_changes:  # D19: only ever grows, so never removed
        actions.append(TournamentItem.rating_changes.set(dict(record.rating_changes)))
    kwargs = conn.get_operation_kwargs(pk, actions=actions, condition=condition) | ALL_OLD

    def updated() -> dict[str, Any]:
        contacts = dict(record.contacts)
        item = tournament_item(record, version, state, contacts, write_id, layout)
        attrs: dict[str, Any] = item.serialize()
        return attrs

    return Op("Update", kwargs, pk, False, updated)


def written_by(old: dict[str, Any] | None, write_id: str) -> bool:
    """Whether an item (DynamoDB's wire format) was last written with `write_id`."""
    name = Item.write_id.attr_name
    return old is not None and old.get(name, {}).get("S") == write_id


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
