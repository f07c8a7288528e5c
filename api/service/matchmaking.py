"""R18, R19, D6, D7, D14: the queue, lobbies, and the start of a tournament."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import wordlists
from api.service import errors, names
from api.service.context import Context, guarded, is_id, retry_on_conflict
from api.service.tournaments import start_writes
from api.storage import repository as storage
from api.storage.records import LobbyRecord, PlayerRecord
from api.storage.repository import Delete, Put, Write
from core import lobby as lb
from core.errors import GameError


def check_language(language: Any) -> str:
    if not isinstance(language, str) or language not in wordlists.LANGUAGES:
        raise errors.Invalid(
            f"language must be one of {', '.join(wordlists.LANGUAGES)}", code="unknown_language"
        )
    return language


def lobby_view(record: LobbyRecord, nicknames: dict[str, str] | None = None) -> dict[str, Any]:
    lobby = record.lobby
    return {
        "id": lobby.id,
        "language": lobby.language,
        "created_at": lobby.created_at,
        "rating": round(lobby.rating) if lobby.seats else None,
        "seats": [
            {"player_id": s.player, "nickname": (nicknames or {}).get(s.player)}
            for s in lobby.seats
        ],
        "open_seats": lobby.open_seats,
        "group_id": lobby.group_id,
        "tournament_id": record.tournament_id,
    }


class Matchmaking:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def busy(self, player: PlayerRecord) -> str | None:
        """D14: why the player cannot sit down now, or None when free."""
        if player.lobby_id is not None:
            return "already_in_lobby"
        if player.tournament_id is not None:
            record = self.ctx.repo.get_tournament(player.tournament_id)
            if record is not None and record.tournament.finished_at is None:
                me = next(p for p in record.tournament.players if p.id == player.id)
                if me.lives > 0:
                    return "in_tournament"
        return None

    def join(self, player: PlayerRecord, language: Any) -> LobbyRecord:
        """R18, D6: sit in the best eligible lobby, or open a new one."""
        language = check_language(language)
        self.ctx.limit(f"join:{player.id}", per=20, window_s=60)

        def attempt() -> LobbyRecord:
            me = self.ctx.repo.get_player(player.id)
            if me is None:
                raise errors.NotFound("player not found")
            if me.lobby_id is not None:
                current = self.ctx.repo.get_lobby(me.lobby_id)
                if current is not None and current.lobby.language == language:
                    return current  # joining again is harmless
            reason = self.busy(me)
            if reason is not None:
                raise errors.Conflict("finish or leave what you are in first", code=reason)
            now = self.ctx.now()
            candidates = self.ctx.repo.open_lobbies(language, me.rating, lb.RATING_WINDOW)
            chosen = lb.choose((c.lobby for c in candidates), me.rating, language)
            if chosen is None:
                lobby = lb.Lobby(self.ctx.new_id("l"), language, now)
                record = LobbyRecord(lb.seat(lobby, me.id, me.rating, language))
                seated = replace(me, lobby_id=lobby.id, queued_at=now)
                self.ctx.repo.commit([Put(record, new=True), Put(seated)])
                return replace(record, version=1)
            stored = next(c for c in candidates if c.id == chosen.id)
            if chosen.has(me.id):  # a request of ours seated us since `me` was read: re-read
                raise storage.Conflict(f"{me.id} was seated in {chosen.id} meanwhile")
            try:
                record = replace(stored, lobby=lb.seat(chosen, me.id, me.rating, language))
            except GameError as exc:
                raise errors.from_game_error(exc) from exc
            return self.commit_seats(
                record, {me.id: replace(me, lobby_id=chosen.id, queued_at=now)}
            )

        return retry_on_conflict(attempt)

    def commit_seats(self, record: LobbyRecord, changed: dict[str, PlayerRecord]) -> LobbyRecord:
        """Save a lobby with its newly seated players; a full lobby starts its tournament."""
        if not record.lobby.full:
            self.ctx.repo.commit([Put(record), *(Put(p) for p in changed.values())])
            return replace(record, version=record.version + 1)
        others = [s.player for s in record.lobby.seats if s.player not in changed]
        players = {p.id: p for p in self.ctx.repo.get_players(others)}
        players.update(changed)
        if len(players) != len(record.lobby.seats):
            raise errors.Conflict("a seated player no longer exists", code="lobby_broken")
        t, writes = start_writes(self.ctx, record, list(players.values()), self.ctx.now())
        self.ctx.repo.commit(writes)
        return replace(record, tournament_id=t.id, version=record.version + 1)

    def leave(self, player: PlayerRecord) -> None:
        """R19: leaving before the start costs nothing."""

        def attempt() -> None:
            me = self.ctx.repo.get_player(player.id)
            if me is None or me.lobby_id is None:
                raise errors.Conflict("you are not in a lobby", code="not_in_lobby")
            record = self.ctx.repo.get_lobby(me.lobby_id)
            freed = replace(me, lobby_id=None, queued_at=None)
            if record is None:
                self.ctx.repo.commit([Put(freed)])
                return
            if record.tournament_id is not None:
                raise errors.Conflict(
                    "the tournament has started: leave the tournament instead", code="started"
                )
            lobby = lb.unseat(record.lobby, me.id)
            writes: list[Write] = [Put(freed)]
            writes.append(Put(replace(record, lobby=lobby)) if lobby.seats else Delete(record))
            self.ctx.repo.commit(writes)

        retry_on_conflict(attempt)

    def status(self, player: PlayerRecord) -> dict[str, Any]:
        """The wait so far and how many players search within the player's fixed window."""
        me = guarded(lambda: self.ctx.repo.get_player(player.id)) or player
        window = {
            "rating": me.rating,
            "min": me.rating - lb.RATING_WINDOW,
            "max": me.rating + lb.RATING_WINDOW,
            "widens": False,
        }
        if me.lobby_id is None:
            return {"queued": False, "window": window, "lobby": None}
        lobby_id = me.lobby_id
        record = guarded(lambda: self.ctx.repo.get_lobby(lobby_id))
        if record is None:
            return {"queued": False, "window": window, "lobby": None}
        language = record.lobby.language
        nearby = guarded(
            lambda: self.ctx.repo.open_lobbies(language, me.rating, 2 * lb.RATING_WINDOW)
        )
        searching = sum(
            1
            for other in nearby
            for s in other.lobby.seats
            if s.player != me.id and abs(s.rating - me.rating) <= lb.RATING_WINDOW
        )
        now = self.ctx.now()
        return {
            "queued": True,
            "waited_ms": max(0, now - (me.queued_at or now)),
            "searching_in_window": searching,
            "window": window,
            "lobby": lobby_view(record),
        }

    def lobby(self, player: PlayerRecord, lobby_id: str) -> dict[str, Any]:
        if not is_id(lobby_id, "l"):
            raise errors.NotFound("no such lobby")
        record = guarded(lambda: self.ctx.repo.get_lobby(lobby_id))
        if record is None:
            raise errors.NotFound(f"lobby {lobby_id} not found")
        seats = [s.player for s in record.lobby.seats]
        if player.id not in seats:
            raise errors.Forbidden("only seated players may see a lobby", code="not_seated")
        known = {p.id: p.nickname for p in guarded(lambda: self.ctx.repo.get_players(seats))}
        present = [s for s in seats if s in known]
        return lobby_view(
            record, dict(zip(present, names.shown([known[s] for s in present]), strict=True))
        )
