"""R18, R19, D6, D7, D11, D16: who may sit in which lobby, and for how long, as pure decisions.

Which open lobbies meet (D15) is core/merge.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from core import errors
from core.timing import PLAYERS_PER_TOURNAMENT

RATING_WINDOW = 200  # R18: never widens


@dataclass(frozen=True, slots=True)
class LobbySeat:
    player: str
    rating: int
    seen: int = 0  # D16: when the player was last heard from (seated, or a later contact)
    bot: bool = False  # D18: not a person (a house bot, or a bot that plays through the API)


@dataclass(frozen=True, slots=True)
class Lobby:
    id: str
    language: str
    created_at: int
    seats: tuple[LobbySeat, ...] = ()
    group_id: str | None = None
    group_rating: float | None = None  # D11: a group lobby is rated by its members alone

    @property
    def rating(self) -> float:
        """D6: the mean rating of the seated players (D11: of the group, for a group lobby)."""
        if self.group_rating is not None:
            return self.group_rating
        if not self.seats:
            raise ValueError("an empty lobby has no rating")
        return sum(s.rating for s in self.seats) / len(self.seats)

    @property
    def full(self) -> bool:
        return len(self.seats) >= PLAYERS_PER_TOURNAMENT

    @property
    def open_seats(self) -> int:
        return PLAYERS_PER_TOURNAMENT - len(self.seats)

    def has(self, player: str) -> bool:
        return any(s.player == player for s in self.seats)


def eligible(lobby: Lobby, rating: int, language: str) -> bool:
    """D6: same language, a free seat, and |lobby rating − own rating| ≤ 200 (R18)."""
    if lobby.language != language or lobby.full or not lobby.seats:
        return False
    return abs(lobby.rating - rating) <= RATING_WINDOW


def ranked(lobbies: Iterable[Lobby], rating: int, language: str) -> list[Lobby]:
    """D6: the eligible lobbies, the fullest first, then the closest rating, then the oldest."""
    return sorted(
        (lobby for lobby in lobbies if eligible(lobby, rating, language)),
        key=lambda lb: (-len(lb.seats), abs(lb.rating - rating), lb.created_at, lb.id),
    )


def choose(lobbies: Iterable[Lobby], rating: int, language: str) -> Lobby | None:
    """D6: the best eligible lobby, or None."""
    best = ranked(lobbies, rating, language)
    return best[0] if best else None


def seat(
    lobby: Lobby, player: str, rating: int, language: str, now: int = 0, *, bot: bool = False
) -> Lobby:
    if lobby.has(player):
        raise errors.AlreadySeated(player)
    if lobby.full:
        raise errors.LobbyFull(lobby.id)
    if lobby.language != language:  # D6, even for a fresh lobby, which has no rating yet
        raise errors.NotEligible(f"lobby {lobby.id} plays in {lobby.language}, not {language}")
    if lobby.seats and not eligible(lobby, rating, language):
        raise errors.NotEligible(
            f"lobby {lobby.id} ({lobby.language}, rating {lobby.rating:.0f}) does not admit "
            f"a {language} player rated {rating}"
        )
    return replace(lobby, seats=(*lobby.seats, LobbySeat(player, rating, now, bot)))


def seat_group(lobby: Lobby, members: Iterable[LobbySeat]) -> Lobby:
    """R22: the whole group sits together; its mean rating becomes the lobby's (D11)."""
    members = tuple(members)
    if lobby.seats:
        raise ValueError("a group takes a fresh lobby")
    if not 1 <= len(members) <= PLAYERS_PER_TOURNAMENT:
        raise ValueError("a group has 1 to 8 members")
    mean = sum(m.rating for m in members) / len(members)
    return replace(lobby, seats=members, group_rating=mean)


def people(lobby: Lobby) -> int:
    """D18: how many of the seated players are people (not bots)."""
    return sum(1 for s in lobby.seats if not s.bot)


def unseat(lobby: Lobby, player: str) -> Lobby:
    """R19: before the start, leaving the lobby costs nothing."""
    if not lobby.has(player):
        raise errors.NotSeated(player)
    return replace(lobby, seats=tuple(s for s in lobby.seats if s.player != player))


def heard_from(lobby: Lobby, contacts: Mapping[str, int]) -> Lobby:
    """D9, D16: the lobby with each seat's last contact brought up to `contacts` (player → ms)."""
    newer = {
        s.player: contacts[s.player] for s in lobby.seats if contacts.get(s.player, s.seen) > s.seen
    }
    if not newer:
        return lobby
    seats = tuple(replace(s, seen=newer[s.player]) if s.player in newer else s for s in lobby.seats)
    return replace(lobby, seats=seats)


def idle(lobby: Lobby, now: int, idle_ms: int) -> tuple[str, ...]:
    """D16: the seated players not heard from for `idle_ms` (60 s) at `now`."""
    return tuple(s.player for s in lobby.seats if now - s.seen >= idle_ms)


def idle_deadline(lobby: Lobby, idle_ms: int) -> int | None:
    """D16, D10: the first moment a seat of the lobby falls idle (None for an empty lobby)."""
    return min((s.seen + idle_ms for s in lobby.seats), default=None)
