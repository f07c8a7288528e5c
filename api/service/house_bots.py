"""D18: house bots fill a lobby in which a person has waited long enough, and its tournament
starts (D7), in one transaction.

When: `WT_BOT_FILL_SECONDS` after the lobby's last seat was taken (`LobbyRecord.seated_at`), if
a person sits in it (`core.filling.fill_at`). That moment is stored, so it is one of the lobby's
deadlines (its `due` in the sweep's index, api/service/lobbies.py) and the queue can say when it
comes (`bots_at`); whichever tends the lobby first at or after it (a poll of the queue, a join,
the sweep) fills it, and the tournament starts at that moment, however late it is noticed (D10).

Which bots: ordinary player items (`PlayerRecord.house`), rated and reused. An idle house bot
(in no lobby and no tournament) is listed in the `fill` index under its rating band
(`Players.idle_bots`: one query on each side of the lobby's rating), so a fill reuses the
closest idle bots before it makes new ones. A bot leaves the index when a fill claims it and
comes back when its place in that tournament is fixed (D14: out is free at once).

Races: the fill writes the lobby, the people, the bots and the new tournament in one
transaction, each conditional on the version read (a new bot: on not existing). A person who
takes the last seats at the same moment, another fill claiming the same idle bot, a player
leaving: one of the two commits fails, re-reads and decides again; nothing is lost. The index
lags, so after a lost race the bots it lists are read again by key before they are claimed.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from api.service import names
from api.service.context import Context
from api.service.tournaments import start_writes
from api.storage import repository as storage
from api.storage.records import LobbyRecord, PlayerRecord
from core import filling

log = logging.getLogger("wordle_tournament")

IDLE_READ = 8  # idle bots read on each side of the lobby's rating (7 seats at most to fill)
# A house bot's token hash: a signed-out player's (api/service/players.py SIGNED_OUT, not
# imported: players imports the leaderboards, which import the queue), which no secret hashes to.
NO_TOKEN = ""


class HouseBots:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def on(self) -> bool:
        return self.ctx.settings.house_bots

    def fill_at(self, record: LobbyRecord) -> int | None:
        """When house bots fill this lobby as it stands (None: never, as it stands: bots off,
        no person seated, not open)."""
        if not self.on or not record.open:
            return None
        return filling.fill_at(record.lobby, record.last_seated, self.ctx.settings.bot_fill_ms)

    def fill(self, record: LobbyRecord, now: int, *, verify: bool = False) -> LobbyRecord | None:
        """Fill `record` (as read) and start its tournament if its fill is due at `now`: the
        lobby as stored afterwards, or None when it is not due. One attempt: raises
        storage.Conflict when another write came first (read again and call again, `verify`
        then, so that bots the index still lists after their claim are read by key)."""
        at = self.fill_at(record)
        if at is None or at > now:
            return None
        lobby = record.lobby
        seated = self.ctx.repo.get_players([s.player for s in lobby.seats])
        if len(seated) != len(lobby.seats) or any(p.lobby_id != record.id for p in seated):
            raise storage.Conflict(f"the players of lobby {record.id} changed")
        idle = self._idle(lobby.rating, verify)
        made: dict[str, PlayerRecord] = {}
        filled = filling.fill(
            lobby,
            (filling.Candidate(b.id, b.rating) for b in idle.values()),
            lambda: self.ctx.new_id("p"),
            self.ctx.rng,
            at,
        )
        for bot in filled.created:
            made[bot.id] = self._new_bot(bot, at)
        bots = [idle[b] for b in filled.reused] + list(made.values())
        full = replace(record, lobby=filled.lobby)
        # D10: the tournament starts when the fill was due, however late it is noticed.
        t, writes = start_writes(self.ctx, full, [*seated, *bots], at)
        self.ctx.repo.commit(writes)
        log.info(
            "house bots filled a lobby",
            extra={
                "fields": {
                    "lobby_id": record.id,
                    "tournament_id": t.id,
                    "people": len(seated),
                    "reused": len(filled.reused),
                    "created": len(filled.created),
                    "late_ms": now - at,
                }
            },
        )
        return replace(full, tournament_id=t.id, version=record.version + 1, due=None)

    def _idle(self, rating: float, verify: bool) -> dict[str, PlayerRecord]:
        """Idle house bots near `rating`, by id; with `verify`, read again by key (strongly
        consistent) and kept only if still idle."""
        listed = self.ctx.repo.idle_bots(rating, filling.REUSE_WINDOW, IDLE_READ)
        if verify and listed:
            fresh = self.ctx.repo.get_players([b.id for b in listed])
            listed = [b for b in fresh if b.idle_house_bot]
        return {b.id: b for b in listed if b.idle_house_bot}

    def _new_bot(self, bot: filling.Candidate, now: int) -> PlayerRecord:
        """A new house bot's record (version 0: the fill's transaction creates it). No token
        can ever be its: its token hash is a signed-out player's."""
        return PlayerRecord(
            id=bot.id,
            token_hash=NO_TOKEN,
            nickname=names.generate(self.ctx.rng),
            rating=bot.rating,
            created_at=now,
            bot=True,
            last_contact=now,
            house=True,
        )
