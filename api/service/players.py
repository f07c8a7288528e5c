"""Anonymous players (R25): creation, bearer tokens, profile and nickname."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import replace
from typing import Any

from api.service import errors, names
from api.service.board_names import BoardNames
from api.service.context import Context, guarded, is_id, retry_on_conflict
from api.service.creation_limits import spend_creation
from api.service.where import where
from api.storage.records import PlayerRecord
from api.storage.repository import Put, Write
from core.errors import GameError
from core.rating import START_RATING

TOKEN_BYTES = 32  # 256 random bits; only the hash is stored
# The secret half of a token, in token_urlsafe's alphabet (43 characters today).
TOKEN_SECRET = re.compile(r"[A-Za-z0-9_-]{16,128}")
# The stored hash of a player who signed out: no secret hashes to it, so no token matches.
SIGNED_OUT = ""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Players:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.board_names = BoardNames(ctx)

    def create(
        self, client: str, bot: bool = False, rating: int | None = None
    ) -> tuple[PlayerRecord, str]:
        """A new player and its bearer token `<player id>.<secret>` (shown only now).

        New players cost a player item and counters, so their creation is budgeted per client
        address (`client`), per network and for everyone (api/service/creation_limits.py: a
        class of 30 on one address gets in, one network cannot use up everyone's ceiling of
        `settings.creations_per_minute`). Bots (created with the bot key, see
        `check_bot_key`) skip the budgets and may start at another rating, so that a pool can
        seat bots near any person's rating.
        """
        if not bot:
            spend_creation(
                self.ctx.limiter, client, self.ctx.settings.creations_per_minute, self.ctx.rng
            )
        secret = secrets.token_urlsafe(TOKEN_BYTES)
        player = PlayerRecord(
            id=self.ctx.new_id("p"),
            token_hash=_hash(secret),
            nickname=names.generate(self.ctx.rng),
            rating=START_RATING if rating is None else rating,
            created_at=self.ctx.now(),
            bot=bot,
            last_contact=self.ctx.now(),
        )
        guarded(lambda: self.ctx.repo.commit([Put(player, new=True)]))
        return replace(player, version=1), f"{player.id}.{secret}"

    def holds_bot_key(self, given: str | None) -> bool:
        """Only the holder of the configured bot key may create bots; none is configured by
        default, so a deployment refuses every bot."""
        key = self.ctx.settings.bot_key
        return bool(key and given and hmac.compare_digest(key.encode(), given.encode()))

    def check_bot_key(self, given: str | None) -> None:
        if not self.holds_bot_key(given):
            raise errors.Forbidden("creating a bot needs the bot key", code="bot_key")

    def authenticate(self, header: str | None, *, consistent: bool = True) -> PlayerRecord:
        """The player of an `Authorization: Bearer <player id>.<secret>` header (the scheme in
        any case, RFC 7235), or 401.

        The read is strongly consistent: a token rotated or signed out a moment ago fails at
        once. With `consistent=False` (a state poll that names the state it was shown) it is
        first eventually consistent, for half a read unit, and strong only when that finds no
        player holding the token: a new player or a token rotated a moment ago works at once,
        and an old token may still poll for as long as a replica lags behind its rotation or
        sign-out (docs/decisions.md, "Reading the token's player").
        """
        player_id, hashed = bearer(header)
        if not consistent:
            found = guarded(lambda: self.ctx.repo.get_player(player_id, consistent=False))
            if found is not None and _holds(found, hashed):
                return found
        player = guarded(lambda: self.ctx.repo.get_player(player_id))
        if player is None or not _holds(player, hashed):
            raise errors.InvalidToken("unknown token")
        return player

    def rotate_token(self, player: PlayerRecord) -> tuple[PlayerRecord, str]:
        """A new token for the caller; the one it used stops working at once. The write is
        conditional on the version read: of two concurrent rotations or sign-outs with the same
        token, one wins and the other finds the token gone (401)."""
        secret = secrets.token_urlsafe(TOKEN_BYTES)
        updated = self._replace_token(player, _hash(secret))
        return updated, f"{player.id}.{secret}"

    def sign_out(self, player: PlayerRecord) -> None:
        """The caller's token stops working. The player stays (rating, seats, tournaments go on
        without it: a live tournament counts it as silent, D9) but nobody can act as it again."""
        self._replace_token(player, SIGNED_OUT)

    def _replace_token(self, player: PlayerRecord, token_hash: str) -> PlayerRecord:
        def attempt() -> PlayerRecord:
            current = self.ctx.repo.get_player(player.id)
            if current is None or current.token_hash != player.token_hash:
                # Rotated or signed out since this request authenticated.
                raise errors.InvalidToken("unknown token")
            updated = replace(current, token_hash=token_hash)
            self.ctx.repo.commit([Put(updated)])
            return replace(updated, version=updated.version + 1)

        return retry_on_conflict(attempt)

    def rename(self, player: PlayerRecord, nickname: Any) -> PlayerRecord:
        """R25: a new nickname, unless it looks like (UTS #39 skeleton) the name of another
        player in the caller's lobby or group, or of anyone else shown on a leaderboard (422
        `invalid_nickname`, reason `look_alike`). A live tournament keeps the names it started
        with, so a rename while playing shows from the next one."""
        if not isinstance(nickname, str):
            raise errors.Invalid("nickname must be a string", code="invalid_nickname")
        try:
            cleaned = names.validate(nickname)
        except GameError as exc:
            raise errors.from_game_error(exc) from exc
        wanted = names.key(cleaned)
        if self.board_names.holders(wanted) - {player.id}:
            raise errors.Invalid(
                "a player on a leaderboard has a nickname that looks the same: pick another one",
                code="invalid_nickname",
                reason="look_alike",
            )

        def attempt() -> PlayerRecord:
            current = self.ctx.repo.get_player(player.id)
            if current is None:
                raise errors.NotFound("player not found")
            for other in self._neighbours(current):
                if names.key(other.nickname) == wanted:
                    raise errors.Invalid(
                        "another player in your lobby or group has a nickname that looks the "
                        "same: pick another one",
                        code="invalid_nickname",
                        reason="look_alike",
                    )
            updated = replace(current, nickname=cleaned)
            writes: list[Write] = [Put(updated)]
            for found in self.ctx.repo.get_stats([current.id]):  # the leaderboards' name
                writes.append(Put(replace(found, stats=replace(found.stats, nickname=cleaned))))
            self.ctx.repo.commit(writes)
            return replace(updated, version=updated.version + 1)

        return retry_on_conflict(attempt)

    def _neighbours(self, player: PlayerRecord) -> list[PlayerRecord]:
        """The other players whose names show beside the player's: its lobby and its group."""
        ids: set[str] = set()
        if player.lobby_id is not None:
            lobby = self.ctx.repo.get_lobby(player.lobby_id)
            if lobby is not None and lobby.tournament_id is None:
                ids.update(s.player for s in lobby.lobby.seats)
        if player.group_id is not None:
            group = self.ctx.repo.get_group(player.group_id)
            if group is not None:
                ids.update(group.group.members)
        ids.discard(player.id)
        return self.ctx.repo.get_players(sorted(ids)) if ids else []


def profile(player: PlayerRecord) -> dict[str, Any]:
    return {
        "id": player.id,
        "nickname": player.nickname,
        "rating": player.rating,
        "tournaments_played": player.played,
        "lobby_id": player.lobby_id,
        "tournament_id": player.tournament_id,
        "last_tournament_id": player.last_tournament_id,
        "group_id": player.group_id,
        "bot": player.bot,
        "where": where(player),
    }


def bearer(header: str | None) -> tuple[str, str]:
    """The player id and the hash of the secret of an `Authorization: Bearer <player id>.<secret>`
    header (the scheme in any case, RFC 7235), read without storage; 401 if malformed."""
    scheme, _, token = (header or "").strip().partition(" ")
    if scheme.lower() != "bearer":
        raise errors.Unauthorized("send 'Authorization: Bearer <token>'")
    player_id, dot, secret = token.strip().partition(".")
    if not dot or not is_id(player_id, "p") or not TOKEN_SECRET.fullmatch(secret):
        raise errors.InvalidToken("malformed token")
    return player_id, _hash(secret)


def _holds(player: PlayerRecord, hashed: str) -> bool:
    """Whether `player`'s token hashes to `hashed` (never a signed-out one's)."""
    return player.token_hash != SIGNED_OUT and hmac.compare_digest(player.token_hash, hashed)
