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
    group: str | None = None  # the player's group (R22), if they are in one
    # D18: a house bot, whose moves core plays (core/house.py). It is a bot (`bot`) too; a bot
    # that is not a house bot plays through the API like a person (api/bots/client.py).
    house: bool = False


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
    # R22: the group the player was in when the tournament started. Its leader can start again
    # only once no member is still in a tournament, so none can while this one plays on.
    group: str | None = None
    house: bool = False  # D18: core plays its moves; never disconnects (D9 does not apply)

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

    def house_bots(self) -> dict[str, int]:
        """D18: the house bots still playing, with their ratings."""
        return {p.id: p.rating for p in self.players if p.house and p.lives > 0}

    def next_deadline(self) -> int | None:
        """The earliest time at which advancing would change something (for the sweep): a
        turn's timeout, a disconnect window's end (R21; house bots have none), or a house bot's
        move (D18)."""
        if self.finished_at is not None:
            return None
        duels = self.rounds[-1].duels
        times = [d.deadline for d in duels if d.deadline is not None]
        times += [
            p.last_contact + self.timing.reconnect_ms
            for p in self.players
            if p.lives > 0 and p.left_at is None and not p.house
        ]
        house = self.house_bots()
        if house:
            # Imported on first use: a process that serves no house bot never loads the solver
            # (a Lambda's cold start).
            from core.house import move_at

            moves = (move_at(self.seed, d, house) for d in duels)
            times += [at for at in moves if at is not None]
        return min(times) if times else None
