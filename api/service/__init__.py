"""The service layer: every use case of the game, over a repository. No HTTP here."""

from __future__ import annotations

from api.service.analysis import Coach
from api.service.contact import Contacts
from api.service.context import Context
from api.service.groups import Groups
from api.service.history import PlayerHistory
from api.service.leaderboards import Leaderboards
from api.service.matchmaking import Matchmaking
from api.service.players import Players
from api.service.poll_passes import PollPasses
from api.service.sweep import SweepReport, sweep
from api.service.tournaments import Tournaments
from api.storage.records import PlayerRecord


class Service:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.players = Players(ctx)
        self.queue = Matchmaking(ctx)
        self.groups = Groups(ctx, self.queue)
        self.tournaments = Tournaments(ctx)
        self.coach = Coach(ctx, self.tournaments)
        self.history = PlayerHistory(ctx)
        self.leaderboards = Leaderboards(ctx)
        self.contacts = Contacts(ctx, lobby_contact=self.queue.heard_from)
        self.passes = PollPasses(ctx.settings.poll_pass_key)

    def contact(self, player: PlayerRecord) -> None:
        """D9: the server heard from `player` (see api/service/contact.py). Every authenticated
        route calls it (the tournament routes stamp the tournament they read instead)."""
        self.contacts.heard_from(player)

    def sweep(self, limit: int = 500) -> SweepReport:
        return sweep(self.ctx, self.tournaments, self.queue.lobbies, limit)

    def refresh_leaderboards(self) -> int:
        """The scheduled refresh of the leaderboards' snapshots (at most one a minute)."""
        return self.leaderboards.refresh_if_due()
