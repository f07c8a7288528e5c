"""The capacity meter as the DynamoDB adapter's observer (api/storage/dynamodb/observer.py): what
each call would cost, per key of the table and of each index, from the items it read and wrote.

Writes that do not read their item (touch, reschedule) and the index entries a write replaces
are metered from the item as this process last saw it: the meter keeps the entries of the
tournaments and lobbies (and of any indexed item) it saw, up to CAPACITY of them; an item it has
not seen is guessed (`guessed_before`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from api.storage import keys
from api.storage.dynamodb.history_items import refresh_claim
from api.storage.dynamodb.writes import Op
from api.storage.layout import Layout
from api.storage.metering.billing import item_size, write_units
from api.storage.metering.meter import Meter
from api.storage.metering.traffic import (
    TABLE,
    Entry,
    Touch,
    entries,
    projects_all,
    query_touch,
    read_touch,
    unknown_entry,
    write_touches,
)

Entries = dict[str, Entry]
Raw = dict[str, Any]
CAPACITY = 4096
PLAYER_ITEM_BYTES = 300  # about a player item's size, to meter touch_player (one write unit)


class ImageCache:
    """The last known entries (api/storage/metering/traffic.py) of the tournaments and lobbies
    this process read or wrote, to meter writes that do not read the item (touch, reschedule)
    and the index entries a write replaces."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, Entries] = OrderedDict()
        self._capacity = capacity

    def get(self, pk: str) -> Entries | None:
        with self._lock:
            return self._entries.get(pk)

    def put(self, pk: str, entries: Entries) -> None:
        with self._lock:
            self._entries[pk] = entries
            self._entries.move_to_end(pk)
            if len(self._entries) > self._capacity:
                self._entries.popitem(last=False)

    def drop(self, pk: str) -> None:
        with self._lock:
            self._entries.pop(pk, None)


def guessed_before(pk: str, after: Entries, layout: Layout) -> Entries:
    """An existing item this process has not seen: assume it had the same entries, changed
    (one write per index it is in), and that a tournament or lobby leaving the indexes was in
    its deadline shard (one delete)."""
    guess = {name: replace(entry, projected={}) for name, entry in after.items()}
    if TABLE in guess:
        guess[TABLE] = after[TABLE]
    if keys.has_contacts(pk) and set(after) <= {TABLE}:
        if pk.startswith(keys.TOURNAMENT):
            shard = layout.due_key(keys.without(keys.TOURNAMENT, pk))
        else:
            shard = layout.lobby_due_key(keys.without(keys.LOBBY, pk))
        guess[keys.DUE_INDEX] = Entry(shard, None, len(pk) + len(shard) + 12, {})
    return guess


def due_entry(pk: str, shard: str, due: int) -> Entry:
    """A tournament's or lobby's entry in the `due` index (KEYS_ONLY)."""
    attrs = {"pk": {"S": pk}, "dk": {"S": shard}, "dd": {"N": str(due)}}
    return Entry(shard, str(due), item_size(attrs), attrs)


def due_moved(known: Entries | None, pk: str, shard: str, due: int | None) -> Entries:
    """An item's entries (`known`: as last seen, None: not seen) once its deadline is `due` in
    `shard` (None: out of `due`)."""
    if known is None:  # not seen: assume it was due elsewhere in its shard
        known = {TABLE: unknown_entry(pk), keys.DUE_INDEX: due_entry(pk, shard, -1)}
    moved = {
        # An index that projects the whole item (`fill`) has its entry written again.
        name: replace(e, projected={**e.projected, "dd": {"N": str(due)}})
        if projects_all(name)
        else e
        for name, e in known.items()
        if name != keys.DUE_INDEX
    }
    if due is not None:
        moved[keys.DUE_INDEX] = due_entry(pk, shard, due)
    return moved


def restamped(known: Entries | None, pk: str, now: int) -> Entries:
    """A lobby's entries once a contact stamp changed its `c` map (in its fill entry)."""
    if known is None:  # not seen: its fill key is unknown here
        known = {TABLE: unknown_entry(pk), keys.OPEN_INDEX: unknown_entry(f"{keys.FILL}?")}
    return {
        name: replace(e, projected={**e.projected, "c": {"S": f"restamped {now}"}})
        if projects_all(name)
        else e
        for name, e in known.items()
    }


def _kept(pk: str, found: Entries) -> bool:
    """Whether the meter keeps an item's entries: its next write replaces them."""
    return len(found) > 1 or keys.has_contacts(pk)


class DynamoMeter:
    def __init__(self, meter: Meter, layout: Layout) -> None:
        self.meter = meter
        self.layout = layout
        self._images = ImageCache()

    def _seen(self, pk: str, item: Raw) -> None:
        found = entries(item)
        if _kept(pk, found):
            self._images.put(pk, found)
        else:  # it left its indexes since (a house bot claimed, D18): what was kept is stale
            self._images.drop(pk)

    def saw(self, pk: str, found: Entries) -> None:
        """Meter the next writes of `pk` as if its item had last been seen with these entries."""
        self._images.put(pk, found)

    # ------------------------------------------------------------------ reads

    def read(self, operation: str, pk: str, item: Raw | None, *, consistent: bool) -> None:
        size = 0 if item is None else item_size(item)
        self.meter.touch(operation, [read_touch(pk, size, consistent=consistent)])
        if item is not None:
            self._seen(pk, item)

    def read_many(self, operation: str, found: Sequence[Raw], missing: Sequence[str]) -> None:
        touches = [read_touch(i["pk"]["S"], item_size(i)) for i in found]
        for i in found:
            self._seen(i["pk"]["S"], i)
        touches += [read_touch(pk, 0) for pk in missing]  # a key that is not there: the minimum
        self.meter.touch(operation, touches)

    def query(self, operation: str, index: str, partition: str, page: Sequence[Raw]) -> None:
        self.meter.touch(operation, [query_touch(index, partition, (item_size(i) for i in page))])

    # ------------------------------------------------------------------ writes

    def committed(self, ops: Sequence[Op], *, transactional: bool, applied: bool) -> None:
        touches: list[Touch] = []
        changes: list[tuple[Op, Entries]] = []
        for op in ops:
            known = None if op.new else self._images.get(op.pk)
            if op.kind == "Delete":
                before: Entries | None = known or entries(op.image())
                after: Entries = {}
            else:
                after = entries(op.image())
                before = {} if op.new else known
            if before is None:
                before = guessed_before(op.pk, after, self.layout)
            touches += write_touches(before, after, transactional=transactional, applied=applied)
            changes.append((op, after))
        self.meter.touch("commit", touches)
        if not applied:
            return
        for op, after in changes:
            if op.kind == "Delete":
                self._images.drop(op.pk)
            elif _kept(op.pk, after):
                self._images.put(op.pk, after)

    def wrote(self, operation: str, pk: str, item: Raw) -> None:
        self.meter.touch(operation, [Touch(TABLE, pk, write=write_units(item_size(item)))])

    def _updated(self, operation: str, pk: str, after: Entries | None, *, applied: bool) -> None:
        """An UpdateItem, metered on the item's entries as last seen (the item is not read: an
        estimate) and as they are afterwards (`after`; None: the same, only the item changed);
        billed on the whole item even when the condition fails."""
        before = self._images.get(pk) or {TABLE: unknown_entry(pk)}
        new = before if after is None else after
        self.meter.touch(operation, write_touches(before, new, applied=applied))
        if applied and after is not None and self._images.get(pk) is not None:
            self._images.put(pk, after)

    def touched(self, operation: str, pk: str, *, applied: bool) -> None:
        self._updated(operation, pk, None, applied=applied)

    def touched_player(self, pk: str, *, applied: bool) -> None:
        after = {TABLE: Entry(pk, None, PLAYER_ITEM_BYTES, {})}  # no index
        self._updated("touch_player", pk, after, applied=applied)

    def touched_lobby(self, pk: str, now: int, *, applied: bool) -> None:
        # `c` is projected into the fill index (ALL): its entry is written again.
        after = restamped(self._images.get(pk), pk, now)
        self._updated("touch_lobby", pk, after, applied=applied)

    def rescheduled(
        self, operation: str, pk: str, shard: str, due: int | None, *, applied: bool
    ) -> None:
        after = due_moved(self._images.get(pk), pk, shard, due)
        self._updated(operation, pk, after, applied=applied)

    def claimed(self, pk: str, now: int, write_id: str, *, applied: bool) -> None:
        after = {TABLE: Entry(pk, None, item_size(refresh_claim(now, write_id)), {})}
        self._updated("claim_refresh", pk, after, applied=applied)
