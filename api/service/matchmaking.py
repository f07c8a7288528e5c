"""R18, R19, D6, D7, D14, D15, D16: the queue, lobbies, and the start of a tournament.

A join seats the player in the best eligible lobby the `fill` index shows (D6) or opens one, and
then tends that lobby (api/service/lobbies.py): players who joined at the same moment, each
unable to see the others' new lobbies yet, are moved together (D15). Each poll of the queue
tends the caller's lobby again and counts as a contact (D16).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import wordlists
from api.service import errors, names
from api.service.context import Context, guarded, is_id, retry_on_conflict
from api.service.lobbies import Lobbies, nearby, saved
from api.service.tournaments import start_writes
from api.storage import repository as storage
from api.storage.records import LobbyRecord, PlayerRecord
from api.storage.repository import Delete, Put, Write
from core import lobby as lb
from core.errors import GameError

CANDIDATES_READ = 3  # lobbies a join reads again by key before it opens its own


def check_language(language: Any) -> str:
    if not isinstance(language, str) or language not in wordlists.LANGUAGES:
        raise errors.Invalid(
            f"language must be one of {', '.join(wordlists.LANGUAGES)}", code="unknown_language"
        )
    return language


def lobby_view(record: LobbyRecord, nicknames: dict[str, str] | None = None) -> dict[str, Any]:
    """A lobby's seats (nicknames when `nicknames` are known), each marked bot or not (D18: the
    seat says so)."""
    lobby = record.lobby
    return {
        "id": lobby.id,
        "language": lobby.language,
        "created_at": lobby.created_at,
        "rating": round(lobby.rating) if lobby.seats else None,
        "seats": [
            {"player_id": s.player, "nickname": (nicknames or {}).get(s.player), "bot": s.bot}
            for s in lobby.seats
        ],
        "open_seats": lobby.open_seats,
        "group_id": lobby.group_id,
        "tournament_id": record.tournament_id,
    }


class Matchmaking:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.lobbies = Lobbies(ctx)

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
        """R18, D6: sit in the best eligible lobby, or open a new one; then meet (D15)."""
        language = check_language(language)

        seen: list[LobbyRecord] = []  # the lobbies nearby, for meeting them afterwards

        def attempt() -> LobbyRecord:
            me = self.ctx.repo.get_player(player.id)
            if me is None:
                raise errors.NotFound("player not found")
            now = self.ctx.now()
            if me.lobby_id is not None:
                current = self.ctx.repo.get_lobby(me.lobby_id)
                if current is not None and current.lobby.language == language:
                    return self.lobbies.heard_from(current, me.id, now)  # joining again
            reason = self.busy(me)
            if reason is not None:
                raise errors.Conflict("finish or leave what you are in first", code=reason)
            # One read for both: D6's choice (within 200) and D15's meeting (within 400).
            candidates = nearby(self.ctx, language, me.rating, me.id)
            seen[:] = candidates
            ranked = lb.ranked((c.lobby for c in candidates), me.rating, language)
            for chosen in ranked[:CANDIDATES_READ]:
                # The index may lag: decide on the lobby as stored, and write that version.
                stored = self.ctx.repo.get_lobby(chosen.id)
                if stored is None or not lb.eligible(stored.lobby, me.rating, language):
                    continue
                if stored.tournament_id is not None:
                    continue
                filled, _, _ = self.lobbies.fill_if_due(stored, now)
                if filled:  # D18, D10: house bots took its seats when it was due, before us
                    raise storage.Conflict(f"lobby {stored.id} was due for its fill")
                if stored.lobby.has(me.id):  # a request of ours seated us since `me` was read
                    raise storage.Conflict(f"{me.id} was seated in {stored.id} meanwhile")
                try:
                    seated = lb.seat(stored.lobby, me.id, me.rating, language, now, bot=me.bot)
                except GameError as exc:
                    raise errors.from_game_error(exc) from exc
                changed = {me.id: replace(me, lobby_id=stored.id, queued_at=now)}
                taken = replace(stored, lobby=seated, seated_at=now)  # D18: a seat taken now
                return self.commit_seats(taken, changed, now)
            lobby = lb.seat(
                lb.Lobby(self.ctx.new_id("l"), language, now),
                me.id,
                me.rating,
                language,
                now,
                bot=me.bot,
            )
            put = self.lobbies.write(LobbyRecord(lobby, seated_at=now), now, new=True)
            self.ctx.repo.commit([put, Put(replace(me, lobby_id=lobby.id, queued_at=now))])
            return saved(put)

        record = retry_on_conflict(attempt)
        return self.meet(record, player.id, seen or None)

    def meet(
        self, record: LobbyRecord, player_id: str, nearby: list[LobbyRecord] | None = None
    ) -> LobbyRecord:
        """D15: after sitting down, move together with the players nearby; the lobby the player
        ends up in (its tournament_id set if it started)."""
        if not record.open:
            return record
        now = self.ctx.now()
        tended = self.lobbies.tend(
            record.id, now, player=player_id, record=record, candidates=nearby
        )
        if tended.record is not None:
            return tended.record
        # Moved on by a race this request lost: wherever the player's record says.
        me = guarded(lambda: self.ctx.repo.get_player(player_id))
        if me is not None and me.lobby_id is not None:
            lobby_id = me.lobby_id
            found = guarded(lambda: self.ctx.repo.get_lobby(lobby_id))
            if found is not None:
                return found
        return guarded(lambda: self.ctx.repo.get_lobby(record.id)) or record

    def commit_seats(
        self, record: LobbyRecord, changed: dict[str, PlayerRecord], now: int
    ) -> LobbyRecord:
        """Save a lobby with its newly seated players; a full lobby starts its tournament."""
        if not record.lobby.full:
            put = self.lobbies.write(record, now)
            self.ctx.repo.commit([put, *(Put(p) for p in changed.values())])
            return saved(put)
        others = [s.player for s in record.lobby.seats if s.player not in changed]
        players = {p.id: p for p in self.ctx.repo.get_players(others)}
        players.update(changed)
        if len(players) != len(record.lobby.seats):
            raise errors.Conflict("a seated player no longer exists", code="lobby_broken")
        t, writes = start_writes(self.ctx, record, list(players.values()), now)
        self.ctx.repo.commit(writes)
        return replace(record, tournament_id=t.id, version=record.version + 1, due=None)

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
            if lobby.seats:
                writes.append(self.lobbies.write(replace(record, lobby=lobby), self.ctx.now()))
            else:
                writes.append(Delete(record))
            self.ctx.repo.commit(writes)

        retry_on_conflict(attempt)

    def heard_from(self, player: PlayerRecord) -> None:
        """D9, D16: any request of a seated player keeps the seat (GET /v1/me, for one)."""
        lobby_id = player.lobby_id
        if lobby_id is None:
            return
        record = guarded(lambda: self.ctx.repo.get_lobby(lobby_id))
        if record is not None:
            self.lobbies.heard_from(record, player.id, self.ctx.now())

    def status(self, player: PlayerRecord) -> dict[str, Any]:
        """The wait so far, how many people search in the player's fixed window and language,
        and when house bots fill the lobby (D18); also a contact (D16), a chance to meet the
        lobbies nearby (D15), and the fill itself once it is due."""
        me = guarded(lambda: self.ctx.repo.get_player(player.id)) or player
        window = {
            "rating": me.rating,
            "min": me.rating - lb.RATING_WINDOW,
            "max": me.rating + lb.RATING_WINDOW,
            "widens": False,
        }
        idle = {"queued": False, "window": window, "lobby": None, "bots_at": None}
        if me.lobby_id is None:
            return idle
        lobby_id = me.lobby_id
        record = guarded(lambda: self.ctx.repo.get_lobby(lobby_id))
        if record is None or not record.open or not record.lobby.has(me.id):
            return idle
        now = self.ctx.now()
        # Storage's heartbeat (api/service/outages.py), kept fresh by the waiting too: else the
        # quiet minute before a lone person's tournament would be taken for an outage of it.
        self.ctx.outages(now)
        record = self.lobbies.heard_from(record, me.id, now)
        lobby = record.lobby
        # Bounded: a few lobbies per rating band, the fullest first, however many are open.
        around = guarded(lambda: nearby(self.ctx, lobby.language, lobby.rating, lobby.id))
        tended = self.lobbies.tend(
            record.id, now, player=me.id, record=record, candidates=around
        ).record
        if tended is None or not tended.open:
            return idle  # it started (or the player is gone): GET /v1/me says where
        together = {s.player for s in tended.lobby.seats}
        searching = sum(
            1
            for other in around
            if other.id not in (record.id, tended.id)
            for s in other.lobby.seats
            if not s.bot
            and s.player not in together
            and abs(s.rating - me.rating) <= lb.RATING_WINDOW
        )
        return {
            "queued": True,
            "waited_ms": max(0, now - (me.queued_at or now)),
            "searching_in_window": searching,
            "bots_at": self.lobbies.house.fill_at(tended),
            "window": window,
            "lobby": lobby_view(tended),
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
        self.lobbies.heard_from(record, player.id, self.ctx.now())
        known = {p.id: p.nickname for p in guarded(lambda: self.ctx.repo.get_players(seats))}
        present = [s for s in seats if s in known]
        return lobby_view(
            record, dict(zip(present, names.shown([known[s] for s in present]), strict=True))
        )
