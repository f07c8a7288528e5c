"""D19: rating farms. A win handed over by someone who walks away is not a win.

A farm is a player whose opponents leave without playing so that the player collects rating:
the audit's farmer started group tournaments (R22) with 7 puppets who left at once (R20), and
won each: +25 a tournament at equal ratings (R17). What a farm gains is **refused** when the
place is fixed (R16): the gain is never applied, so there is nothing to roll back and nothing
frozen to release. The rating change is R15–R17's (D5) computed as if the refused opponents had
not been in the tournament (so they add nothing, neither their expected score nor the win).

Words, for a tournament and a player P whose place is fixed:

- a **quitter** left the tournament while still in it (R20, or R21 after 60 s away) and
  finished below P; leaving once eliminated is no quit (D14);
- a **walk-over** is a quitter who had played fewer than `WALKOVER_GUESSES` guesses in the
  whole tournament: they gave their duels away rather than lost them.

Refused (the opponent's term of D5 is left out of P's change):

1. a walk-over by a member of P's own group (the group chose to play together, R22);
2. a quitter who already quit below P in P's recent tournaments (`FarmMemory.quitters`): the
   same player giving up to P again;
3. while P is flagged as a farm (noticed below, until an operator clears P), every walk-over.

Noticed (P is flagged "farm", kept off the leaderboards until an operator decides, D19):
3 or more walk-overs by P's group in one tournament, 3 or more quitters P had seen quit before
in one tournament, or 3 or more walk-overs in two of P's latest `HISTORY` tournaments (the
tournament is *handed* to P). The notice refuses that tournament's walk-overs already.

Friends who play each other lose nothing: nobody quits, so nothing is refused and every change
is exactly R15–R17's. What the rules cost an honest player: a group-mate who walks away at
once, or the same opponent quitting below them a second time, adds nothing to their change (at
equal ratings 3.6 points each, 50/7 × ½).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, replace

from core import rating
from core.tournament_state import Player, Tournament

WALKOVER_GUESSES = 3  # a quitter who had played fewer guesses walked over
QUITTERS_KEPT = 16  # the latest distinct quitters remembered per player
HISTORY = 16  # tournaments whose "handed" mark is remembered
NOTICE_AT = 3  # walk-overs (or repeated quitters) in one tournament that make it a pattern


def key(player_id: str) -> int:
    """A player's 32-bit key in a memory (collisions among 16 keys are negligible)."""
    return zlib.crc32(player_id.encode())


@dataclass(frozen=True, slots=True)
class FarmMemory:
    """What a player's record keeps for this rule: bounded, whatever the number of tournaments."""

    quitters: tuple[int, ...] = ()  # keys of the latest distinct quitters below them, newest last
    handed: int = 0  # bit i set: their i-th latest tournament (0: the latest) was handed to them
    refused: int = 0  # rating points refused, in all
    noticed: str | None = None  # the latest tournament that made the pattern, for operators

    @property
    def handed_count(self) -> int:
        return self.handed.bit_count()


EMPTY_MEMORY = FarmMemory()


@dataclass(frozen=True, slots=True)
class Settlement:
    player: str
    full: int  # R15–R17's change (the tournament's own, D5)
    change: int  # the change to apply: `full` less what is refused
    refused: tuple[str, ...]  # the opponents whose term was left out
    walkovers: int  # walk-overs below the player
    notice: bool  # the farm pattern holds
    memory: FarmMemory

    @property
    def refused_points(self) -> int:
        return self.full - self.change


def guesses(t: Tournament, player_id: str) -> int:
    """Words `player_id` played in the whole tournament."""
    return sum(
        1
        for rnd in t.rounds
        for duel in rnd.duels
        if player_id in duel.players
        for turn in duel.turns
        if turn.player == player_id and turn.word is not None
    )


def _below(t: Tournament, p: Player) -> list[Player]:
    if p.place is None:
        raise ValueError(f"the place of {p.id} is not fixed yet")
    return [q for q in t.players if q.id != p.id and q.place is not None and q.place > p.place]


def settle(t: Tournament, player_id: str, memory: FarmMemory, farm: bool = False) -> Settlement:
    """The rating change to apply to `player_id`, whose place in `t` is fixed, and their memory
    after it. `farm`: the player is flagged as a farm (core.fairplay.record)."""
    p = t.player(player_id)
    quitters = [q for q in _below(t, p) if q.left_at is not None]
    walkovers = {q.id for q in quitters if guesses(t, q.id) < WALKOVER_GUESSES}
    seen = set(memory.quitters)
    own_group = {q.id for q in quitters if q.id in walkovers and p.group and q.group == p.group}
    again = {q.id for q in quitters if key(q.id) in seen}
    handed = len(walkovers) >= NOTICE_AT
    notice = (
        len(own_group) >= NOTICE_AT
        or len(again) >= NOTICE_AT
        or (handed and memory.handed_count >= 1)
    )
    refused = own_group | again | (walkovers if farm or notice else set())
    if p.rating_change is None:
        raise ValueError(f"the rating change of {player_id} is not fixed yet")
    full = p.rating_change
    change = full
    if refused:
        ratings = {q.id: q.rating for q in t.players if q.id not in refused}
        places = {q.id: q.place for q in t.players if q.place is not None and q.id not in refused}
        change = rating.change(player_id, ratings, places)
    return Settlement(
        player=player_id,
        full=full,
        change=change,
        refused=tuple(sorted(refused)),
        walkovers=len(walkovers),
        notice=notice,
        memory=_remember(memory, [key(q.id) for q in quitters], handed, full - change, notice, t),
    )


def _remember(
    memory: FarmMemory, keys: list[int], handed: bool, refused: int, notice: bool, t: Tournament
) -> FarmMemory:
    kept = [k for k in memory.quitters if k not in keys] + sorted(set(keys))
    return replace(
        memory,
        quitters=tuple(kept[-QUITTERS_KEPT:]),
        handed=((memory.handed << 1) | handed) & ((1 << HISTORY) - 1),
        refused=memory.refused + refused,
        noticed=t.id if notice else memory.noticed,
    )


def forget_pattern(memory: FarmMemory) -> FarmMemory:
    """An operator cleared the player: the tournaments handed to them no longer count. The
    quitters stay (rule 2 is no suspicion of the player: it is what a repeated quit is worth)."""
    return replace(memory, handed=0, noticed=None)
