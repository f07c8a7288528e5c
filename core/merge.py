"""D15: open lobbies whose players can play together meet, as pure decisions.

Two open lobbies of one language meet when nobody would end up in a lobby rated more than 200
points from their own rating (R18 never widens):

- When their players fit in 8 seats, the lobbies merge: the younger's players move into the
  older. A group's lobby always stays where it is and takes the others in (R22: its members
  stay together); its rating is the group's (D11), so only the players who move in are
  checked against it. Two groups' lobbies never merge: a lobby has one group.
- When together they hold more than 8, the fuller one (the older on a tie; a group's lobby
  always) is topped up to 8 with the other's players closest to its rating, and its tournament
  starts (D7); the others stay where they are. Without this, lobbies of 5, 5 and 6 players of
  equal rating would wait side by side for ever.

Every move fills a tournament or leaves one open lobby fewer, so lobbies that keep meeting come
to rest: then no two open lobbies can meet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from core.lobby import RATING_WINDOW, Lobby, LobbySeat
from core.timing import PLAYERS_PER_TOURNAMENT


@dataclass(frozen=True, slots=True)
class Move:
    """Players of `source` move into `target`; both lobbies as they are afterwards."""

    target: Lobby
    source: Lobby
    moved: tuple[str, ...]

    @property
    def starts(self) -> bool:
        """D7: the move fills the target's 8th seat."""
        return self.target.full

    @property
    def closes(self) -> bool:
        """Every player of the source moved: it closes."""
        return not self.source.seats


def _open(lobby: Lobby) -> bool:
    return bool(lobby.seats) and not lobby.full


def _age(lobby: Lobby) -> tuple[int, str]:
    return lobby.created_at, lobby.id


def admits(target: Lobby, movers: Sequence[LobbySeat]) -> bool:
    """Whether `movers` may join `target` with everyone within 200 of its rating afterwards.

    A group's lobby keeps the group's rating, and R18 applies to the players who fill it (D11);
    any other lobby's rating becomes the mean of all its players (D6), checked for all of them.
    """
    if target.group_rating is not None:
        return all(abs(s.rating - target.group_rating) <= RATING_WINDOW for s in movers)
    seats = (*target.seats, *movers)
    mean = sum(s.rating for s in seats) / len(seats)
    return all(abs(s.rating - mean) <= RATING_WINDOW for s in seats)


def _roles(a: Lobby, b: Lobby) -> tuple[Lobby, Lobby]:
    """(target, source): a group's lobby takes the other in; lobbies that fit together merge
    into the older; otherwise the fuller is topped up from the other."""
    if a.group_id is not None:
        return a, b
    if b.group_id is not None:
        return b, a
    if len(a.seats) + len(b.seats) <= PLAYERS_PER_TOURNAMENT:
        older, younger = sorted((a, b), key=_age)
        return older, younger
    fuller, other = sorted((a, b), key=lambda lb: (-len(lb.seats), *_age(lb)))
    return fuller, other


def plan(a: Lobby, b: Lobby) -> Move | None:
    """How two lobbies meet (D15), or None when they cannot."""
    if a.id == b.id or a.language != b.language or not (_open(a) and _open(b)):
        return None
    if a.group_id is not None and b.group_id is not None:
        return None
    target, source = _roles(a, b)
    room = target.open_seats
    if len(source.seats) <= room:
        movers = source.seats
    else:
        # Top-up: the source's players closest to the target's rating, in seating order.
        by_distance = sorted(
            range(len(source.seats)),
            key=lambda i: (abs(source.seats[i].rating - target.rating), i),
        )
        movers = tuple(source.seats[i] for i in sorted(by_distance[:room]))
    if not admits(target, movers):
        return None
    moved = tuple(s.player for s in movers)
    return Move(
        target=replace(target, seats=(*target.seats, *movers)),
        source=replace(source, seats=tuple(s for s in source.seats if s.player not in moved)),
        moved=moved,
    )


def best(lobby: Lobby, others: Iterable[Lobby]) -> tuple[Move, Lobby] | None:
    """The move `lobby` should make first, with its partner: one that starts a tournament,
    then the one that seats the most players together, then the closest rating, then the
    oldest partner (D6's order, so that every request and the sweep choose alike)."""
    moves = [(move, other) for other in others if (move := plan(lobby, other)) is not None]
    if not moves:
        return None
    return min(
        moves,
        key=lambda mo: (
            not mo[0].starts,
            -len(mo[0].target.seats),
            abs(mo[1].rating - lobby.rating),
            _age(mo[1]),
        ),
    )
