"""The stored records. Each carries the version it was read at; writes are conditional on it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from core.fairplay.record import FairPlay
from core.groups import Group
from core.lobby import Lobby
from core.results import Result
from core.stats import Stats
from core.tournament_state import Tournament


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    token_hash: str
    nickname: str
    rating: int
    created_at: int
    played: int = 0
    lobby_id: str | None = None
    queued_at: int | None = None  # when the player sat down in the current lobby
    tournament_id: str | None = None  # a live tournament the player is still in (D14)
    last_tournament_id: str | None = None  # the latest tournament, to watch or see results
    group_id: str | None = None
    bot: bool = False
    version: int = 0  # 0: never stored (a write of it must create it)
    # D9: when the player was last heard from outside a tournament (queue, lobby, group, me),
    # written apart from the versioned record (Repository.touch_player). In a tournament the
    # tournament's own stamps count (TournamentRecord.contacts).
    last_contact: int = 0
    # D18: a house bot, played by the service itself (a bot too); it has no token. While in
    # neither a lobby nor a tournament it is idle, listed for reuse (Players.idle_bots).
    house: bool = False

    @property
    def idle_house_bot(self) -> bool:
        return self.house and self.lobby_id is None and self.tournament_id is None


@dataclass(frozen=True, slots=True)
class LobbyRecord:
    lobby: Lobby
    tournament_id: str | None = None  # set once the lobby is full and the tournament started
    version: int = 0
    # When the sweep must next look at it (D15 merges, D16 idle seats); None once not open.
    due: int | None = None
    # D15: its players moved into this lobby; the record stays (without seats) until it expires.
    moved_to: str | None = None
    # D18: when its last seat was taken (house bots fill it a while after). None for a lobby
    # stored before it was kept: then its seats' latest contact stands for it.
    seated_at: int | None = None

    @property
    def last_seated(self) -> int:
        """When the lobby's last seat was taken (see `seated_at`)."""
        if self.seated_at is not None:
            return self.seated_at
        return max((s.seen for s in self.lobby.seats), default=self.lobby.created_at)

    @property
    def id(self) -> str:
        return self.lobby.id

    @property
    def open(self) -> bool:
        """Listed for matchmaking: not started, with a free seat."""
        return self.tournament_id is None and not self.lobby.full and bool(self.lobby.seats)


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    tournament: Tournament
    version: int = 0
    # D9: last-contact stamps, written apart from the versioned state (see Repository.touch).
    contacts: Mapping[str, int] = field(default_factory=dict)
    # When the sweep must next look at it (None once finished): the sparse deadline index.
    due: int | None = None
    # D19: the rating change applied to each player whose change was not the tournament's own
    # `Player.rating_change` (a walk-over's gain refused, core.fairplay.farming), written with
    # the place it belongs to; what the state and the results show (api/service/tournaments.py).
    rating_changes: Mapping[str, int] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.tournament.id


@dataclass(frozen=True, slots=True)
class GroupRecord:
    group: Group
    lobby_id: str | None = None  # the group's current lobby, while it fills
    version: int = 0

    @property
    def id(self) -> str:
        return self.group.id


@dataclass(frozen=True, slots=True)
class ClockRecord:
    """Storage's heartbeat (api/service/outages.py): when it was last known to be writable, and
    the outages (start, end) recorded lately, oldest first."""

    at: int
    outages: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class HistoryRecord:
    """A line of a player's history: their result in one tournament, written once, in the
    transaction that fixed their place (R16)."""

    player_id: str
    result: Result
    version: int = 0

    @property
    def id(self) -> str:
        return f"{self.player_id}#{self.result.tournament_id}"


@dataclass(frozen=True, slots=True)
class StatsRecord:
    """A player's statistics, updated in the same transaction as each history line, with their
    fair-play record (D19: None until their first place fixed since fair play began, and for
    bots, who are never judged)."""

    player_id: str
    stats: Stats
    version: int = 0
    fairplay: FairPlay | None = None

    @property
    def id(self) -> str:
        return self.player_id


Record = PlayerRecord | LobbyRecord | TournamentRecord | GroupRecord | HistoryRecord | StatsRecord
