"""A player's statistics, added up one result at a time (never recomputed from the history).

The shell stores them in one item per player, written in the transaction that fixes a place
(R16), so each result is added exactly once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from core.results import Result
from core.timing import TURNS_PER_PLAYER

RATING_POINTS = 50  # the rating chart keeps this many of the latest points
PODIUM = 3


@dataclass(frozen=True, slots=True)
class Before:
    """What the latest result changed, as it was before it: a leaderboard snapshot taken just
    before that result counted the player this way (core/leaderboard.py)."""

    rating: int
    recorded_at: int | None  # when the result before it was recorded (None: it is the first)
    language_played: int | None  # the latest result's language, last finished before it


@dataclass(frozen=True, slots=True)
class Stats:
    nickname: str
    rating: int
    bot: bool = False
    played: int = 0
    wins: int = 0  # first places (R7, and shared firsts of R8)
    podiums: int = 0  # places 1 to 3
    place_total: int = 0
    streak: int = 0  # wins in a row, up to the latest result
    best_streak: int = 0
    duels_won: int = 0
    duels_drawn: int = 0
    duels_lost: int = 0
    # Duels won by finding the word, by the winner's turns used: index 0 is 1 turn, 5 is 6.
    guesses: tuple[int, ...] = (0,) * TURNS_PER_PLAYER
    # (time, rating), oldest first: the rating before the first result, then after each one.
    points: tuple[tuple[int, int], ...] = ()
    languages: Mapping[str, int] = field(default_factory=dict)  # language → last finished
    last_played: int | None = None  # the latest `finished_at`
    recorded_at: int | None = None  # when the latest result was recorded (the server's clock)
    latest_language: str | None = None
    before: Before | None = None

    @property
    def average_place(self) -> float | None:
        return None if self.played == 0 else self.place_total / self.played


def add(stats: Stats | None, result: Result, nickname: str, bot: bool, now: int) -> Stats:
    """`stats` (None: the first result) with `result` added, recorded at `now`."""
    s = stats if stats is not None else Stats(nickname, result.rating_before, bot)
    won = result.place == 1
    streak = s.streak + 1 if won else 0
    guesses = list(s.guesses)
    for turns in result.wins_in:
        guesses[min(max(turns, 1), TURNS_PER_PLAYER) - 1] += 1
    points = s.points or ((result.started_at, result.rating_before),)
    # Results are added in the order they were recorded; a chart's time never goes back.
    at = max(result.finished_at, points[-1][0])
    points = (*points, (at, result.rating_after))[-RATING_POINTS:]
    languages = dict(s.languages)
    language_played = languages.get(result.language)
    languages[result.language] = max(result.finished_at, language_played or 0)
    return Stats(
        nickname=nickname,
        rating=result.rating_after,
        bot=bot,
        played=s.played + 1,
        wins=s.wins + won,
        podiums=s.podiums + (result.place <= PODIUM),
        place_total=s.place_total + result.place,
        streak=streak,
        best_streak=max(s.best_streak, streak),
        duels_won=s.duels_won + result.won,
        duels_drawn=s.duels_drawn + result.drawn,
        duels_lost=s.duels_lost + result.lost,
        guesses=tuple(guesses),
        points=points,
        languages=languages,
        last_played=max(result.finished_at, s.last_played or 0),
        recorded_at=now,
        latest_language=result.language,
        before=Before(s.rating, s.recorded_at, language_played),
    )
