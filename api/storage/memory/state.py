"""What every part of the in-memory fake shares: its items, the contact stamps kept beside
tournaments and lobbies, the versions before the latest (for stale reads), and its observer.

InMemoryRepository (repository.py) makes this state; its parts (queries.py, small_updates.py,
commits.py, counters.py) are mixed into it and reach the state through these attributes.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Any

from api.storage.layout import Layout
from api.storage.memory.items import Items, Key
from api.storage.memory.observer import Image, Observer
from api.storage.records import LobbyRecord, Record, TournamentRecord
from core.lobby import heard_from


def item_key(record: Record) -> Key:
    return type(record), record.id


class MemoryState:
    """The attributes the fake's parts share (InMemoryRepository.__init__ sets them), and the
    stamps beside an item."""

    layout: Layout
    _observer: Observer | None
    _table: Items
    _lock: threading.Lock
    _items: dict[Key, Any]
    _contacts: dict[str, dict[str, int]]
    _lobby_contacts: dict[str, dict[str, int]]
    stale_reads: bool
    _before: dict[Key, Any]  # each tournament's and player's version before

    def _stamps(self, key: Key) -> dict[str, int]:
        """The contact map stored beside a tournament or lobby; the caller holds the lock."""
        if key[0] is TournamentRecord:
            return self._contacts.get(key[1], {})
        if key[0] is LobbyRecord:
            return self._lobby_contacts.get(key[1], {})
        return {}

    def _image(self, key: Key) -> Image:
        """The stored item of `key` and its stamps, for the observer; the caller holds the lock."""
        return self._items.get(key), dict(self._stamps(key))

    def _with_contacts(self, record: LobbyRecord) -> LobbyRecord:
        stamps = self._lobby_contacts.get(record.id)
        return replace(record, lobby=heard_from(record.lobby, stamps)) if stamps else record
