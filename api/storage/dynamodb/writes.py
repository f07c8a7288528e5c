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
from dataclasses import dataclass, replace
from typing import Any

from pynamodb.connection import TableConnection
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.update import Action

from api.storage.dynamodb.errors import botocore_response
from api.storage.dynamodb.items import (
    Item,
    TournamentItem,
    pack_tournament,
    record_key,
    to_item,
    tournament_item,
)
from api.storage.dynamodb.table import DUE_INDEX, OPEN_INDEX
from api.storage.layout import Layout
from api.storage.metering.meter import item_size
from api.storage.metering.traffic import (
    TABLE,
    Entry,
    Touch,
    entries,
    projects_all,
    unknown_entry,
    write_touches,
)
from api.storage.records import TournamentRecord
from api.storage.repository import Delete, Put, Write

Entries = dict[str, Entry]

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
    before: Entries | None  # the item's entries before (None: unknown; empty: a new item)
    after: Entries  # and afterwards (empty: deleted)

    @property
    def size(self) -> int:
        """The item's size as stored afterwards (before, for a delete)."""
        entry = self.after.get(TABLE) or (self.before or {}).get(TABLE)
        return 0 if entry is None else entry.size


def op_touches(
    ops: Sequence[Op], transactional: bool, layout: Layout, *, applied: bool
) -> list[Touch]:
    """The units of a commit's writes, per key (api/storage/metering/traffic.py)."""
    touches: list[Touch] = []
    for op in ops:
        before = op.before if op.before is not None else guessed_before(op.pk, op.after, layout)
        touches += write_touches(before, op.after, transactional=transactional, applied=applied)
    return touches


def guessed_before(pk: str, after: Entries, layout: Layout) -> Entries:
    """An existing item this process has not seen: assume it had the same entries, changed
    (one write per index it is in), and that a tournament or lobby leaving the indexes was in
    its deadline shard (one delete)."""
    guess = {name: replace(entry, projected={}) for name, entry in after.items()}
    if TABLE in guess:
        guess[TABLE] = after[TABLE]
    if pk[:2] in ("T#", "L#") and set(after) <= {TABLE}:
        shard = layout.due_key(pk[2:]) if pk[0] == "T" else layout.lobby_due_key(pk[2:])
        guess[DUE_INDEX] = Entry(shard, None, len(pk) + len(shard) + 12, {})
    return guess


def due_entry(pk: str, shard: str, due: int) -> Entry:
    """A tournament's or lobby's entry in the `due` index (KEYS_ONLY)."""
    attrs = {"pk": {"S": pk}, "dk": {"S": shard}, "dd": {"N": str(due)}}
    return Entry(shard, str(due), item_size(attrs), attrs)


def due_moved(known: Entries | None, pk: str, shard: str, due: int | None) -> Entries:
    """An item's entries (`known`: as last seen, None: not seen) once its deadline is `due` in
    `shard` (None: out of `due`)."""
    if known is None:  # not seen: assume it was due elsewhere in its shard
        known = {TABLE: unknown_entry(pk), DUE_INDEX: due_entry(pk, shard, -1)}
    moved = {
        # An index that projects the whole item (`fill`) has its entry written again.
        name: replace(e, projected={**e.projected, "dd": {"N": str(due)}})
        if projects_all(name)
        else e
        for name, e in known.items()
        if name != DUE_INDEX
    }
    if due is not None:
        moved[DUE_INDEX] = due_entry(pk, shard, due)
    return moved


def restamped(known: Entries | None, pk: str, now: int) -> Entries:
    """A lobby's entries once a contact stamp changed its `c` map (in its fill entry)."""
    if known is None:  # not seen: its fill key is unknown here
        known = {TABLE: unknown_entry(pk), OPEN_INDEX: unknown_entry("O#?")}
    return {
        name: replace(e, projected={**e.projected, "c": {"S": f"restamped {now}"}})
        if projects_all(name)
        else e
        for name, e in known.items()
    }


class ImageCache:
    """The last known entries (api/storage/metering/traffic.py) of the tournaments and lobbies this
    process read or wrote, to meter writes that do not read the item (touch, reschedule) and
    the index entries a write replaces."""

    def __init__(self, capacity: int = 4096) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, Entries] = OrderedDict()
        self._capacity = capacity

    def get(self, pk: str) -> Entries | None:
        with self._lock:
            return self._entries.get(pk)

    def size(self, pk: str) -> int:
        entries = self.get(pk)
        table = None if entries is None else entries.get(TABLE)
        return 0 if table is None else table.size

    def put(self, pk: str, entries: Entries) -> None:
        with self._lock:
            self._entries[pk] = entries
            self._entries.move_to_end(pk)
            if len(self._entries) > self._capacity:
                self._entries.popitem(last=False)

    def drop(self, pk: str) -> None:
        with self._lock:
            self._entries.pop(pk, None)


def due_actions(tournament_id: str, due: int | None, layout: Layout) -> list[Action]:
    if due is None:
        return [TournamentItem.dk.remove(), TournamentItem.dd.remove()]
    return [TournamentItem.dk.set(layout.due_key(tournament_id)), TournamentItem.dd.set(due)]


def operation(
    conn: TableConnection, cache: ImageCache, write: Write, write_id: str, layout: Layout
) -> Op:
    """The conditional Put, Update or Delete for one write of a commit."""
    record = write.record
    pk = record_key(record)
    stored = Item.v == record.version
    known = None if isinstance(write, Put) and write.new else cache.get(pk)
    if isinstance(write, Delete):
        attrs = to_item(record, record.version, layout=layout).serialize()
        kwargs = conn.get_operation_kwargs(pk, condition=stored) | ALL_OLD
        return Op("Delete", kwargs, pk, known or entries(attrs), {})
    version = 1 if write.new else record.version + 1
    if isinstance(record, TournamentRecord) and not write.new:
        return _tournament_update(conn, known, record, pk, version, stored, write_id, layout)
    # A new tournament starts with an empty contact map: touch() sets paths inside it.
    attrs = to_item(record, version, contacts={}, write_id=write_id, layout=layout).serialize()
    condition = Item.pk.does_not_exist() if write.new else stored
    kwargs = conn.get_operation_kwargs(pk, key="Item", attributes=attrs, condition=condition)
    before = {} if write.new else known
    return Op("Put", kwargs | ALL_OLD, pk, before, entries(attrs))


def _tournament_update(
    conn: TableConnection,
    known: Entries | None,
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
        TournamentItem.s.set(state),
        TournamentItem.v.set(version),
        TournamentItem.w.set(write_id),
        *due_actions(record.id, record.due, layout),
    ]
    kwargs = conn.get_operation_kwargs(pk, actions=actions, condition=condition) | ALL_OLD
    contacts = dict(record.contacts)
    attrs = tournament_item(record, version, state, contacts, write_id, layout).serialize()
    return Op("Update", kwargs, pk, known, entries(attrs))


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
