"""The in-memory fake's small updates, each a conditional update of one item without a version
bump: the contact stamps (a tournament's, a lobby's, a player's last contact) and the deadlines
of tournaments and lobbies.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from api.storage import keys
from api.storage.memory.items import Key
from api.storage.memory.state import MemoryState
from api.storage.records import LobbyRecord, PlayerRecord, TournamentRecord


class MemorySmallUpdates(MemoryState):
    def _small_update(self, operation: str, key: Key, change: Callable[[], bool]) -> None:
        """An update without a version bump: `change` applies it (the lock held) and says
        whether its condition held; observed with the item before and after."""
        with self._lock:
            before = None if self._observer is None else self._image(key)
            applied = change()
            after = None if self._observer is None else self._image(key)
        if self._observer is not None and before is not None and after is not None:
            pk = keys.key_of(*key)
            self._observer.updated(operation, pk, before, after, applied=applied)

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        key = (TournamentRecord, tournament_id)

        def change() -> bool:
            if key not in self._items:
                return False  # like DynamoDB's conditional update: nothing to stamp
            stamps = self._contacts.setdefault(tournament_id, {})
            if stamps.get(player_id, now - 1) >= now:
                return False
            stamps[player_id] = now
            return True

        self._small_update("touch", key, change)

    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        key = (LobbyRecord, lobby_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.tournament_id is not None:
                return False
            stamps = self._lobby_contacts.setdefault(lobby_id, {})
            if stamps.get(player_id, now - 1) >= now:
                return False
            stamps[player_id] = now
            return True

        self._small_update("touch_lobby", key, change)

    def touch_player(self, player_id: str, now: int) -> None:
        key = (PlayerRecord, player_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.last_contact >= now:
                return False
            self._table.set(key, replace(record, last_contact=now))
            return True

        self._small_update("touch_player", key, change)

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        key = (TournamentRecord, tournament_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.version != version:
                return False
            self._table.set(key, replace(record, due=due))
            return True

        self._small_update("reschedule", key, change)

    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        key = (LobbyRecord, lobby_id)

        def change() -> bool:
            record = self._items.get(key)
            if record is None or record.version != version or not record.open:
                return False
            self._table.set(key, replace(record, due=due))
            return True

        self._small_update("reschedule_lobby", key, change)
