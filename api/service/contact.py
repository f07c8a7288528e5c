"""D9: every authenticated request is contact, written at most once per contact interval.

Where the stamp goes:

- A player in a live tournament: the tournament's contact map (Repository.touch), which every
  advance reads with the state; the tournament routes decide from the stamp they just read.
- A player seated in a lobby: the lobby's contact map (Repository.touch_lobby, folded into the
  seats, what D16 reads), through Matchmaking.heard_from.
- Everyone, on every other route: the player item (Repository.touch_player,
  PlayerRecord.last_contact), which authentication has just read, so deciding costs nothing:
  it is also what tells when the lobby or tournament stamp is due again. A player in a
  tournament or a lobby who only calls, say, `GET /v1/me` is thus heard there too.

Writes are coalesced to one per player per interval (a sixth of the reconnect window, at most
10 s: Timing.contact_interval_ms): the decision uses the stamp read with the request, and this
instance remembers what it wrote last, so a stale read does not write twice.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from api.service.context import Context, guarded
from api.storage.records import PlayerRecord

REMEMBERED = 20_000  # players whose last written stamp this instance keeps


class Contacts:
    def __init__(
        self, ctx: Context, lobby_contact: Callable[[PlayerRecord], None] | None = None
    ) -> None:
        self.ctx = ctx
        self.lobby_contact = lobby_contact
        self._lock = threading.Lock()
        self._written: OrderedDict[str, int] = OrderedDict()

    @property
    def interval_ms(self) -> int:
        return self.ctx.settings.timing.contact_interval_ms

    def heard_from(self, player: PlayerRecord, now: int | None = None) -> None:
        """D9: the server heard from `player` (any authenticated request).

        For lobby seats (D16) the stamp is the seat's (`LobbySeat.seen`); for anyone else outside
        a tournament, `PlayerRecord.last_contact`. Both are at most one interval older than the
        player's latest request while they keep sending them.
        """
        now = self.ctx.now() if now is None else now
        if now - self.last_written(player) < self.interval_ms:
            return
        guarded(lambda: self.ctx.repo.touch_player(player.id, now))
        if player.tournament_id is not None:
            tournament_id = player.tournament_id
            guarded(lambda: self.ctx.repo.touch(tournament_id, player.id, now))
        if player.lobby_id is not None and self.lobby_contact is not None:
            self.lobby_contact(player)
        self.remember(player.id, now)

    def last_written(self, player: PlayerRecord) -> int:
        with self._lock:
            return max(player.last_contact, self._written.get(player.id, 0))

    def remember(self, player_id: str, stamp: int) -> None:
        with self._lock:
            self._written[player_id] = max(stamp, self._written.get(player_id, 0))
            self._written.move_to_end(player_id)
            while len(self._written) > REMEMBERED:
                self._written.popitem(last=False)
