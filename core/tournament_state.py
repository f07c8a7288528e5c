"""A tournament's state as frozen values: its seats, players and rounds (R1, R2, R7, R8).

`core.tournament` holds the commands that make one state from another.
"""

from __future__ import annotations

from dataclasses import dataclass

from core import errors
from core.duel import Duel
from core.timing import LIVES, Timing


@dataclass(frozen=True, slots=True)
class Seat:
    """A player as seated when the lobby filled."""

    id: str
    nickname: str
    rating: int
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    nickname: str
    rating: int  # at the start: every rating change uses these (D5)
    last_contact: int
    lives: int = LIVES
    left_at: int | None = None
    out_round: int | None = None
    place: int | None = None
    rating_change: int | None = None
    bot: bool = False

    @property
    def alive(self) -> bool:
        return self.lives > 0

    @property
    def status(self) -> str:
        if self.left_at is not None:
            return "left"
        if self.lives == 0:
            return "out"  # also when everyone left out in one round shares 1st (R8)
        return "winner" if self.place == 1 else "playing"


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    intro_at: int
    starts_at: int
    duels: tuple[Duel, ...]
    bye: str | None
    ended_at: int | None = None

    def duel_of(self, player: str) -> Duel | None:
        for duel in self.duels:
            if player in duel.players:
                return duel
        return None


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    language: str
    seed: int
    timing: Timing
    created_at: int
    players: tuple[Player, ...]
    rounds: tuple[Round, ...]
    finished_at: int | None = None
    # Storage outages this tournament has taken into account (core/outages.py), each once.
    absorbed: tuple[tuple[int, int], ...] = ()

    @property
    def round(self) -> Round:
        return self.rounds[-1]

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    def player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise errors.UnknownPlayer(player_id)

    def phase(self, now: int) -> str:
        if self.finished_at is not None:
            return "finished"
        return "intro" if now < self.rounds[-1].starts_at else "duels"

    def next_deadline(self) -> int | None:
        """The earliest time at which advancing would change something (for the sweep)."""
        if self.finished_at is not None:
            return None
        times = [d.deadline for d in self.rounds[-1].duels if d.deadline is not None]
        times += [
            p.last_contact + self.timing.reconnect_ms
            for p in self.players
            if p.lives > 0 and p.left_at is None
        ]
        return min(times) if times else None
