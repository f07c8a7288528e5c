"""An in-memory repository with the same semantics as DynamoDB's conditional writes.

For fast service tests and for `make run` without DynamoDB. Thread-safe.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from api.storage.records import (
    GroupRecord,
    LobbyRecord,
    PlayerRecord,
    Record,
    TournamentRecord,
)
from api.storage.repository import Conflict, Delete, Put, Repository, Write
from core.records import evolve


def _key(record: Record) -> tuple[type, str]:
    return type(record), record.id


class InMemoryRepository(Repository):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._items: dict[tuple[type, str], Any] = {}
        self._contacts: dict[str, dict[str, int]] = {}
        self._counters: dict[tuple[str, int], int] = {}

    def _get(self, kind: type, item_id: str) -> Any:
        with self._lock:
            return self._items.get((kind, item_id))

    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        result: PlayerRecord | None = self._get(PlayerRecord, player_id)
        return result

    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        found = (self.get_player(pid) for pid in player_ids)
        return [p for p in found if p is not None]

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None:
        result: LobbyRecord | None = self._get(LobbyRecord, lobby_id)
        return result

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        with self._lock:
            record: TournamentRecord | None = self._items.get((TournamentRecord, tournament_id))
            if record is None:
                return None
            return evolve(record, contacts=dict(self._contacts.get(tournament_id, {})))

    def get_group(self, group_id: str) -> GroupRecord | None:
        result: GroupRecord | None = self._get(GroupRecord, group_id)
        return result

    def open_lobbies(self, language: str, rating: int, window: int) -> list[LobbyRecord]:
        with self._lock:
            lobbies = [v for (kind, _), v in self._items.items() if kind is LobbyRecord]
        return [
            lb
            for lb in lobbies
            if lb.open and lb.lobby.language == language and abs(lb.lobby.rating - rating) <= window
        ]

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        with self._lock:
            due = sorted(
                (v.due, v.id)
                for (kind, _), v in self._items.items()
                if kind is TournamentRecord and v.due is not None and v.due <= now
            )
        return [tid for _, tid in due[:limit]]

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        with self._lock:
            if (TournamentRecord, tournament_id) not in self._items:
                return  # like DynamoDB's conditional update: no tournament, nothing to stamp
            stamps = self._contacts.setdefault(tournament_id, {})
            stamps[player_id] = max(now, stamps.get(player_id, now))

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        with self._lock:
            key = (TournamentRecord, tournament_id)
            record = self._items.get(key)
            if record is not None and record.version == version:
                self._items[key] = replace(record, due=due)

    def commit(self, writes: Sequence[Write]) -> None:
        with self._lock:
            keys = [_key(w.record) for w in writes]
            if len(set(keys)) != len(keys):
                raise ValueError("a transaction touches each item once")
            for write, key in zip(writes, keys, strict=True):
                stored = self._items.get(key)
                if isinstance(write, Put) and write.new:
                    if stored is not None:
                        raise Conflict(f"{key[0].__name__} {key[1]} already exists")
                elif stored is None or stored.version != write.record.version:
                    raise Conflict(f"{key[0].__name__} {key[1]} changed")
            for write, key in zip(writes, keys, strict=True):
                if isinstance(write, Delete):
                    del self._items[key]
                    if key[0] is TournamentRecord:
                        self._contacts.pop(key[1], None)
                else:
                    version = 1 if write.new else write.record.version + 1
                    self._items[key] = replace(write.record, version=version)

    def hit(self, key: str, window_start: int, window_ms: int, limit: int) -> bool:
        with self._lock:
            if len(self._counters) > 10_000:  # forget windows that are over
                self._counters = {
                    k: v for k, v in self._counters.items() if k[1] + window_ms > window_start
                }
            count = self._counters.get((key, window_start), 0)
            if count >= limit:
                return False
            self._counters[(key, window_start)] = count + 1
            return True
