"""When a client should poll the state again: just after the next change this viewer needs to
see, as far as the server can tell. Every timer is stored (D10), so many changes have a known
time; only guesses come at moments nobody knows.

- The intro (R2): nothing changes until the duels start, at a known time: wake just after it.
- Your own turn: only your guess (whose answer is the new state) or your deadline changes your
  duel: wake just after the deadline.
- The opponent's turn: their guess may come at any moment, except in the first seconds of the
  turn (reading the board and typing a word take time): then about every second.
- Waiting for the round to end (your duel is over, or a bye): with one duel left, any of its
  guesses may end the round, and the next intro (R2) must be on screen from its start, so
  about every second (after the quiet start of each of its turns); with two or more left the
  round needs two endings, so every few seconds. A player who is out (R9) has no next round:
  every few seconds too, but every two in a group, whose leader may seat them in a new
  tournament at any time now (D14, R22). A client that shows one duel (it sends `watch`) is
  polled like a player of that duel.
- Finished: nothing changes any more, but a group's leader may seat its members in a new
  tournament at any time (R22): a group member polls every two seconds, anyone else rarely.

The advice is in milliseconds; the `Poll-Interval` header carries it in seconds, to the
millisecond (e.g. `0.35`), so that a client can wake at a deadline rather than a second late.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.duel import Duel
from core.tournament_state import Tournament

MARGIN_MS = 100  # after a known deadline: the poll must reach the server after it
QUIET_MS = 4_000  # a turn is rarely answered sooner (capped at 2/15 of the turn: 4 s of 30)
OPPONENT_MS = 1_000  # the opponent is to play: their guess shows within about a second
LAST_DUEL_MS = 1_000  # one duel left: a new round must be noticed within about a second
DUELS_MS = 4_000  # two or more duels left, or the viewer is out and only watches
GROUP_MS = 2_000  # out or finished, in a group: the leader may seat them anew (R22, D14)
IDLE_MS = 30_000  # finished, no group: only the player's own actions move them
MIN_MS = 200


@dataclass(frozen=True, slots=True)
class Viewer:
    id: str
    in_group: bool = False
    watching: str | None = None  # the duel the client shows, when it is not the viewer's own


def poll_after_ms(t: Tournament, viewer: Viewer, now: int) -> int:
    """Milliseconds until `viewer` should poll `t` again."""
    advice = _advice(t, viewer, now)
    if t.finished_at is None:
        # D9: polls are the player's contact, so stay well inside the reconnect window; but a
        # whole turn may pass in one wait.
        timing = t.timing
        most = max(timing.reconnect_ms // 2, timing.turn_ms + MARGIN_MS)
        advice = min(advice, most, timing.reconnect_ms * 2 // 3)
    return max(MIN_MS, advice)


def header(ms: int) -> str:
    """`Poll-Interval` in seconds with up to three decimals: 1000 → "1", 2350 → "2.35"."""
    whole, part = divmod(ms, 1000)
    return str(whole) if not part else f"{whole}.{part:03d}".rstrip("0")


def _advice(t: Tournament, viewer: Viewer, now: int) -> int:
    if t.finished_at is not None:
        return GROUP_MS if viewer.in_group else IDLE_MS
    rnd = t.rounds[-1]
    playing_on = any(p.id == viewer.id and p.lives > 0 for p in t.players)
    if not playing_on:
        # Out, only watching (R9); but free (D14), so a group's leader may seat them anew.
        wait = GROUP_MS if viewer.in_group else DUELS_MS
    elif now < rnd.starts_at:
        return rnd.starts_at + MARGIN_MS - now
    elif (own := rnd.duel_of(viewer.id)) is not None and own.ended_at is None:
        if own.to_play == viewer.id:
            return _after_deadline(own, now)
        return _answer(own, now, OPPONENT_MS, t.timing.turn_ms)
    elif sum(d.ended_at is None for d in rnd.duels) == 1:
        # Any guess of the last duel may end the round, and the next intro (R2) shows this
        # player's next duel: they must see it from its start.
        last = next(d for d in rnd.duels if d.ended_at is None)
        wait = _answer(last, now, LAST_DUEL_MS, t.timing.turn_ms)
    else:  # the round needs two endings
        wait = DUELS_MS
    if now < rnd.starts_at:
        return min(wait, rnd.starts_at + MARGIN_MS - now)
    watched = next((d for d in rnd.duels if d.id == viewer.watching and d.ended_at is None), None)
    if watched is not None:
        wait = min(wait, _answer(watched, now, OPPONENT_MS, t.timing.turn_ms))
    return wait


def _after_deadline(duel: Duel, now: int) -> int:
    deadline = duel.deadline
    return MARGIN_MS if deadline is None else deadline + MARGIN_MS - now


def _answer(duel: Duel, now: int, every: int, turn_ms: int) -> int:
    """Until the player to play may have answered: nothing early in a turn, then `every`, and
    never later than just after the turn's deadline (a skip, R11, passes the turn on)."""
    quiet_until = duel.turn_started_at + min(QUIET_MS, turn_ms * 2 // 15)
    wait = quiet_until - now if now < quiet_until else every
    return min(wait, _after_deadline(duel, now))
