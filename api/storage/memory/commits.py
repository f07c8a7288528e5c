"""The in-memory fake's commits: a transaction of conditional puts and deletes, every item's
version checked first and all of them applied or none, as DynamoDB's TransactWriteItems.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from api.storage.memory.items import Key
from api.storage.memory.observer import Image
from api.storage.memory.state import MemoryState, item_key
from api.storage.records import LobbyRecord, PlayerRecord, TournamentRecord
from api.storage.repository import Conflict, Delete, Put, Write


class MemoryCommits(MemoryState):
    def commit(self, writes: Sequence[Write]) -> None:
        with self._lock:
            keys_ = [item_key(w.record) for w in writes]
            if len(set(keys_)) != len(keys_):
                raise ValueError("a transaction touches each item once")
            before = [None if self._observer is None else self._image(k) for k in keys_]
            try:
                self._check(writes, keys_)
            except Conflict:
                self._observe_commit(writes, before, applied=False)
                raise
            for write, key in zip(writes, keys_, strict=True):
                if key[0] is LobbyRecord:
                    self._lobby_contacts.pop(key[1], None)  # as DynamoDB's put empties `c`
                if isinstance(write, Delete):
                    self._table.set(key, None)
                    if key[0] is TournamentRecord:
                        self._contacts.pop(key[1], None)
                else:
                    version = 1 if write.new else write.record.version + 1
                    if key[0] in (TournamentRecord, PlayerRecord) and self.stale_reads:
                        old = self._items.get(key)
                        if old is not None:
                            self._before[key] = old
                    self._table.set(key, replace(write.record, version=version))
            self._observe_commit(writes, before, applied=True)

    def _check(self, writes: Sequence[Write], keys_: list[Key]) -> None:
        for write, key in zip(writes, keys_, strict=True):
            stored = self._items.get(key)
            if isinstance(write, Put) and write.new:
                if stored is not None:
                    raise Conflict(f"{key[0].__name__} {key[1]} already exists")
            elif stored is None or stored.version != write.record.version:
                raise Conflict(f"{key[0].__name__} {key[1]} changed")

    def _observe_commit(
        self, writes: Sequence[Write], before: list[Image | None], *, applied: bool
    ) -> None:
        """The caller holds the lock. A failed commit is observed as the adapter's: each item
        as the write would have left it."""
        if self._observer is None:
            return
        changes: list[tuple[Image, Image]] = []
        for write, old in zip(writes, before, strict=True):
            assert old is not None
            record = write.record
            if isinstance(write, Delete):
                changes.append((old, (None, {})))
                continue
            version = 1 if write.new else record.version + 1
            stored = self._items.get(item_key(record)) if applied else None
            after = stored if stored is not None else replace(record, version=version)
            changes.append((old, (after, dict(self._stamps(item_key(record))))))
        self._observer.committed(changes, applied=applied)
