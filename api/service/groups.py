"""R22, D11: friends gather in a group through an invite link; the leader starts."""

from __future__ import annotations

import hmac
import re
import secrets
from dataclasses import replace
from typing import Any

from api.service import errors, names
from api.service.context import Context, guarded, is_id, retry_on_conflict
from api.service.lobbies import saved
from api.service.matchmaking import Matchmaking, check_language
from api.service.tournaments import start_writes
from api.storage.records import GroupRecord, LobbyRecord, PlayerRecord
from api.storage.repository import Delete, Put, Write
from core import groups as gr
from core import lobby as lb
from core.errors import GameError

INVITE_BYTES = 18  # 144 random bits
# An invite code: `<group id>.<secret>`, the secret in token_urlsafe's alphabet.
INVITE_SECRET = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _game(action: Any) -> Any:
    try:
        return action()
    except GameError as exc:
        raise errors.from_game_error(exc) from exc


class Groups:
    def __init__(self, ctx: Context, matchmaking: Matchmaking) -> None:
        self.ctx = ctx
        self.matchmaking = matchmaking

    def _invite_code(self, group_id: str) -> str:
        return f"{group_id}.{secrets.token_urlsafe(INVITE_BYTES)}"

    def _me(self, player: PlayerRecord) -> PlayerRecord:
        me = self.ctx.repo.get_player(player.id)
        if me is None:
            raise errors.NotFound("player not found")
        return me

    def _group(self, group_id: str) -> GroupRecord:
        if not is_id(group_id, "g"):
            raise errors.NotFound("no such group")
        record = self.ctx.repo.get_group(group_id)
        if record is None:
            raise errors.NotFound(f"group {group_id} not found")
        return record

    def create(self, player: PlayerRecord, language: Any) -> GroupRecord:
        language = check_language(language)

        def attempt() -> GroupRecord:
            me = self._me(player)
            if me.group_id is not None:
                raise errors.Conflict("leave your group first", code="already_in_group")
            gid = self.ctx.new_id("g")
            group = gr.create(gid, language, me.id, self._invite_code(gid), self.ctx.now())
            record = GroupRecord(group)
            self.ctx.repo.commit([Put(record, new=True), Put(replace(me, group_id=gid))])
            return replace(record, version=1)

        return retry_on_conflict(attempt)

    def join(self, player: PlayerRecord, invite_code: Any) -> GroupRecord:
        if not isinstance(invite_code, str) or len(invite_code) > 100:
            raise errors.BadRequest("invite_code must be an invite code string")
        group_id, _, secret = invite_code.partition(".")
        if not is_id(group_id, "g") or not INVITE_SECRET.fullmatch(secret):
            raise errors.NotFound("this invite is not valid (any more)", code="bad_invite")

        def attempt() -> GroupRecord:
            record = self.ctx.repo.get_group(group_id)
            # The same answer for an unknown group and a wrong or revoked code.
            if record is None or not hmac.compare_digest(
                record.group.invite_code.encode(), invite_code.encode()
            ):
                raise errors.NotFound("this invite is not valid (any more)", code="bad_invite")
            me = self._me(player)
            if me.group_id == group_id:
                return record
            if me.group_id is not None:
                raise errors.Conflict("leave your group first", code="already_in_group")
            group = _game(lambda: gr.join(record.group, me.id))
            updated = replace(record, group=group)
            self.ctx.repo.commit([Put(updated), Put(replace(me, group_id=group_id))])
            return replace(updated, version=updated.version + 1)

        return retry_on_conflict(attempt)

    def view(self, player: PlayerRecord, group_id: str) -> dict[str, Any]:
        record = guarded(lambda: self._group(group_id))
        group = record.group
        if player.id not in group.members:
            raise errors.Forbidden("only members may see a group", code="not_member")
        members = {p.id: p for p in guarded(lambda: self.ctx.repo.get_players(group.members))}
        present = [m for m in group.members if m in members]
        shown = dict(zip(present, names.shown([members[m].nickname for m in present]), strict=True))
        return {
            "id": group.id,
            "language": group.language,
            "leader": group.leader,
            "invite_code": group.invite_code,
            "lobby_id": record.lobby_id,
            "members": [
                {
                    "player_id": m,
                    "nickname": shown.get(m),
                    "rating": members[m].rating if m in members else None,
                    "lobby_id": members[m].lobby_id if m in members else None,
                    "tournament_id": members[m].tournament_id if m in members else None,
                }
                for m in group.members
            ],
        }

    def new_invite(self, player: PlayerRecord, group_id: str) -> GroupRecord:
        """D11: a new code for the leader; the old one stops working at once."""

        def attempt() -> GroupRecord:
            record = self._group(group_id)
            code = self._invite_code(group_id)
            updated = replace(
                record, group=_game(lambda: gr.new_invite(record.group, player.id, code))
            )
            self.ctx.repo.commit([Put(updated)])
            return replace(updated, version=updated.version + 1)

        return retry_on_conflict(attempt)

    def remove(self, player: PlayerRecord, group_id: str, member_id: str) -> GroupRecord | None:
        """A member leaves, or the leader removes one; an empty group is deleted."""
        if not is_id(member_id, "p"):
            raise errors.NotFound("no such member")

        def attempt() -> GroupRecord | None:
            record = self._group(group_id)
            group = _game(lambda: gr.remove(record.group, player.id, member_id))
            target = self.ctx.repo.get_player(member_id)
            writes: list[Write] = []
            if target is not None and target.group_id == group_id:
                writes.append(Put(replace(target, group_id=None)))
            if group.empty:
                writes.append(Delete(record))
                self.ctx.repo.commit(writes)
                return None
            updated = replace(record, group=group)
            writes.append(Put(updated))
            self.ctx.repo.commit(writes)
            return replace(updated, version=updated.version + 1)

        return retry_on_conflict(attempt)

    def start(self, player: PlayerRecord, group_id: str) -> LobbyRecord:
        """R22: the whole group sits in one fresh lobby; matchmaking fills the other seats."""

        def attempt() -> LobbyRecord:
            record = self._group(group_id)
            group = record.group
            members = self.ctx.repo.get_players(group.members)
            busy = [m.id for m in members if self.matchmaking.busy(m) is not None]
            _game(lambda: gr.check_start(group, player.id, busy))
            now = self.ctx.now()
            empty = lb.Lobby(self.ctx.new_id("l"), group.language, now, group_id=group.id)
            lobby = lb.seat_group(
                empty, (lb.LobbySeat(m.id, m.rating, now, m.bot) for m in members)
            )
            seated = {m.id: replace(m, lobby_id=lobby.id, queued_at=now) for m in members}
            lobby_record = LobbyRecord(lobby, seated_at=now)  # D18: bots fill it in time too
            group_write = Put(replace(record, lobby_id=lobby.id))
            if lobby.full:
                t, writes = start_writes(
                    self.ctx, lobby_record, list(seated.values()), now, new_lobby=True
                )
                self.ctx.repo.commit([*writes, group_write])
                return replace(lobby_record, tournament_id=t.id, version=1)
            put = self.matchmaking.lobbies.write(lobby_record, now, new=True)
            self.ctx.repo.commit([put, *(Put(p) for p in seated.values()), group_write])
            return saved(put)

        started = retry_on_conflict(attempt)
        return self.matchmaking.meet(started, player.id)  # D15: the waiting players fill it
