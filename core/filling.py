"""D18: when house bots fill a lobby, and which bots, as pure decisions.

A lobby with at least one person that has waited `fill_ms` since its last seat was taken is
filled with house bots, and its tournament starts (D7). Each bot is seated only where a player
of its rating could sit (R18: within 200 of the lobby's rating as it then stands; a group's
lobby keeps its members' rating, D11): idle bots first, the closest to the lobby's rating,
then new ones rated close to it, so that the lobby's rating hardly moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from core import lobby as lb

REUSE_WINDOW = 100  # an idle bot is reused when rated this close to the lobby (R18 allows 200)
NEW_BOT_SPREAD = 50  # a new bot is rated within this of the lobby's rating


@dataclass(frozen=True, slots=True)
class Candidate:
    """An idle house bot that may take a seat."""

    id: str
    rating: int


@dataclass(frozen=True, slots=True)
class Filled:
    lobby: lb.Lobby  # full: the people as they sat, then the bots
    reused: tuple[str, ...]  # idle bots seated, in seating order
    created: tuple[Candidate, ...]  # new bots: their ids and ratings


def fill_at(lobby: lb.Lobby, seated_at: int, fill_ms: int) -> int | None:
    """When house bots fill `lobby`, whose last seat was taken at `seated_at`; None when they
    never do as it stands: no person in it, or no free seat."""
    if not lobby.seats or lobby.full or lb.people(lobby) == 0:
        return None
    return seated_at + fill_ms


def fill(
    lobby: lb.Lobby,
    idle: Iterable[Candidate],
    new_id: Callable[[], str],
    rng: random.Random,
    now: int,
) -> Filled:
    """`lobby` with every free seat taken by a house bot: an idle one of `idle` while one is
    within REUSE_WINDOW of the lobby's rating (the closest first), else a new one (`new_id`
    names it) within NEW_BOT_SPREAD."""
    pool = {c.id: c for c in idle if not lobby.has(c.id)}
    reused: list[str] = []
    created: list[Candidate] = []
    while not lobby.full:
        target = lobby.rating
        near = [c for c in pool.values() if abs(c.rating - target) <= REUSE_WINDOW]
        if near:
            chosen = min(near, key=lambda c: (abs(c.rating - target), c.id))
            del pool[chosen.id]
            reused.append(chosen.id)
        else:
            rating = round(target + rng.uniform(-NEW_BOT_SPREAD, NEW_BOT_SPREAD))
            chosen = Candidate(new_id(), rating)
            created.append(chosen)
        lobby = lb.seat(lobby, chosen.id, chosen.rating, lobby.language, now, bot=True)
    return Filled(lobby, tuple(reused), tuple(created))
