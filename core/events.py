"""What happened while a command or the passing of time changed a tournament.

The shell acts on these: ratings are written when a place is fixed, groups are released when the
tournament finishes.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.duel import Word


@dataclass(frozen=True, slots=True)
class RoundStarted:
    number: int
    intro_at: int
    starts_at: int


@dataclass(frozen=True, slots=True)
class GuessPlayed:
    duel_id: str
    player: str
    row: int
    word: Word
    marks: str
    at: int


@dataclass(frozen=True, slots=True)
class DuelEnded:
    duel_id: str
    winner: str | None
    at: int
    forfeit: bool


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    player: str
    at: int


@dataclass(frozen=True, slots=True)
class PlaceFixed:
    player: str
    place: int
    rating_change: int
    new_rating: int


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    at: int
    winner: str | None


Event = RoundStarted | GuessPlayed | DuelEnded | PlayerLeft | PlaceFixed | TournamentFinished
