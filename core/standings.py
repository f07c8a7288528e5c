"""R8, R9, R16, D1, D5, D8: places and rating changes, fixed or still provisional.

A player whose lives reach 0 is out at once, but their place is fixed only when the round ends
(R8: everyone eliminated in that round shares it). Until then the place they would get if the
round ended now is *provisional*: players still in this round can only join them (they then
share the place, D1) and never pass them, so a provisional place can only get better, and the
rating change with it (see docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from core import rating


class Standing(Protocol):
    """What placing needs of a tournament's player (core.tournament.Player has it)."""

    @property
    def id(self) -> str: ...
    @property
    def rating(self) -> int: ...
    @property
    def lives(self) -> int: ...
    @property
    def left_at(self) -> int | None: ...
    @property
    def place(self) -> int | None: ...


def places_if_round_ended(players: Sequence[Standing]) -> dict[str, int]:
    """Every fixed place, plus the place each player out in the current round gets if the
    round ended now: 1 + everyone strictly better (D1); leavers rank below the round's other
    eliminations (R20, D8). Players still in have no place here."""
    alive = sum(1 for p in players if p.lives > 0)
    out = [p for p in players if p.lives == 0 and p.place is None]
    stayed = sum(1 for p in out if p.left_at is None)
    places = {p.id: p.place for p in players if p.place is not None}
    for p in out:
        places[p.id] = 1 + alive + (0 if p.left_at is None else stayed)
    return places


def provisional(players: Sequence[Standing]) -> dict[str, tuple[int, int]]:
    """R9: (place, rating change) of every player who is out but not yet placed, as if the
    round ended now, from everyone's start ratings (D5)."""
    if all(p.lives > 0 or p.place is not None for p in players):
        return {}  # nobody is waiting for a place: most polls
    places = places_if_round_ended(players)
    ratings = {p.id: p.rating for p in players}
    return {
        p.id: (places[p.id], rating.change(p.id, ratings, places))
        for p in players
        if p.lives == 0 and p.place is None
    }
