"""Poll passes: the part of a state's ETag that lets the next poll skip reading its player.

The ETag of a state shown to a player who is still playing (`"<version>.<phase>.<where>"`)
carries a fourth part, the pass: when it expires, whether the player is a bot (bots have no poll
budget), and an HMAC-SHA-256 of those under the deployment's pass key, bound to the player, the
hash of the token the state was shown to, the tournament and the position shown. A poll that
names such an ETag with the same token before it expires is taken as that player's without
reading them: if the state is unchanged for them it is answered 304 from the tournament's read
alone (half a read unit); any other answer reads the player as before.

What it costs (docs/decisions.md, "Reading the token's player"): a token rotated or signed out
may still be answered 304 on its own tournament's unchanged state until the pass it was last
shown expires (`PASS_MS`), and a position changed elsewhere (a group joined on another device)
shows at the state's next change or after that. Without a configured key (`WT_POLL_PASS_KEY`)
each process draws its own, so a pass saves the read only where it was issued.
"""

from __future__ import annotations

import base64
import hmac
import re
import secrets
from dataclasses import dataclass

PASS_MS = 30_000  # a pass's life: the bound on an old token's 304s after a rotation
_MAC_BYTES = 16  # 128 bits of HMAC-SHA-256 (RFC 2104 allows truncation to half or more)
_PASS = re.compile(r"([0-9a-f]{1,12})([hb])([A-Za-z0-9_-]{22})")


@dataclass(frozen=True, slots=True)
class Holder:
    """Who a valid pass was issued to."""

    player_id: str
    bot: bool


class PollPasses:
    def __init__(self, key: str | None = None) -> None:
        self._key = key.encode() if key else secrets.token_bytes(32)
        # What /v1/health reports: whether every instance honours this one's passes.
        self.scope = "shared" if key else "per_process"

    def issue(
        self,
        player_id: str,
        token_hash: str,
        bot: bool,
        tournament_id: str,
        fingerprint: str,
        now: int,
    ) -> str:
        """The pass for a state at position `fingerprint` shown at `now` (ms)."""
        expires = f"{(now + PASS_MS) // 1000:x}"
        kind = "b" if bot else "h"
        mac = self._mac(expires, kind, player_id, token_hash, tournament_id, fingerprint)
        return f"{expires}{kind}{mac}"

    def holder(
        self,
        text: str,
        player_id: str,
        token_hash: str,
        tournament_id: str,
        fingerprint: str,
        now: int,
    ) -> Holder | None:
        """The holder of pass `text` if it was issued for this token, tournament and position
        and has not expired at `now`; None otherwise."""
        found = _PASS.fullmatch(text)
        if found is None:
            return None
        expires, kind, mac = found.groups()
        if int(expires, 16) * 1000 <= now:
            return None
        wanted = self._mac(expires, kind, player_id, token_hash, tournament_id, fingerprint)
        if not hmac.compare_digest(mac, wanted):
            return None
        return Holder(player_id, kind == "b")

    def _mac(self, *parts: str) -> str:
        digest = hmac.digest(self._key, "\n".join(parts).encode(), "sha256")[:_MAC_BYTES]
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
