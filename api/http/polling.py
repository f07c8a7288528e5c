"""When a client should poll the state again: just after the next change this viewer needs to
see, as far as the server can tell. Every timer is stored (D10), so many changes have a known
time; only guesses come at moments nobody knows, and even those follow a pace.

- The intro (R2): nothing changes until the duels start, at a known time, and the client keeps
  time (docs/client.md: the intro ends and the turn begins by the clock): the advice is what it
  will be when the duels start, plus the wait until then.
- Your own turn: only your guess (whose answer is the new state) or your deadline changes your
  duel: wake just after the deadline.
- The opponent's turn: their guess may come at any moment, but a player rarely answers in
  less than half their usual time (the geometric mean of their latest answers in this
  tournament; 4 s before their first): nothing until then (the quiet start), then every
  1.15 s, and just after the deadline. A house bot's move (D18) has a stored time: just after
  it.
- Waiting for the round to end (your duel is over, or a bye): with one duel left, any of its
  guesses may end the round, and the next intro (R2) must be on screen from its start, so like
  a player of that duel (with a wider margin: a round's end makes every waiting player late
  at once); with two left every 4 s, with more every 6 s (the round needs that many endings).
- Out (R9): no next round, so every 10 s; but free (D14), so in a group every 3 s while a
  member still plays here (the last may leave at any moment, R22) and every 2 s once none
  does, since its leader may seat them in a new tournament at any moment. A client that shows
  one duel (it sends `watch`) is polled like a player of that duel.
- Finished: nothing changes any more, but a group's leader may seat its members in a new
  tournament at any time (R22): a group member polls every two seconds, anyone else rarely.

The advice is in milliseconds; the `Poll-Interval` header carries it in seconds, to the
millisecond (e.g. `0.35`), so that a client can wake at a deadline rather than a second late.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from api.config import default_outage_gap
from core.duel import Duel
from core.tournament_state import Tournament

MARGIN_MS = 100  # after a known deadline: the poll must reach the server after it
# While a guess may come: with a round trip of a few tens of milliseconds (the advice counts
# from the answer's arrival), a guess is seen within 1.2 s of being played.
EVERY_MS = 1_150
QUIET_MS = 4_000  # before a player's first answer: hardly sooner (at most 2/15 of the turn)
# A player's answer times spread around their usual time (log-normal, docs/simulator.md); few
# come in less than this share of it (the geometric mean of their last PACE_TURNS answers).
PACE_SHARE = 0.5
# The end of a round is one event that every waiting player must see, so an early one makes
# them all late together: waiting for the round keeps a wider margin.
ROUND_SHARE = 0.4
ROUND_EVERY_MS = EVERY_MS  # and as often: the round's end must be seen at once (R2)
PACE_TURNS = 8
TWO_DUELS_MS = 4_000  # two duels left: the round needs both to end
DUELS_MS = 6_000  # three or more left
OUT_MS = 10_000  # out and only watching: no next round for them, only places to fix (D1)
# Out in a group while a member plays on: the last one may leave at any moment and the leader
# seat everyone at once (R22), whose first intro (R2) they must not miss.
GROUP_WAIT_MS = 3_000
GROUP_MS = 2_000  # out or finished, in a group that may start again (R22, D14)
IDLE_MS = 30_000  # finished, no group: only the player's own actions move them
MIN_MS = 200


@dataclass(frozen=True, slots=True)
class Viewer:
    id: str
    group: str | None = None  # the viewer's group now (R22)
    watching: str | None = None  # the duel the client shows, when it is not the viewer's own


def poll_after_ms(t: Tournament, viewer: Viewer, now: int) -> int:
    """Milliseconds until `viewer` should poll `t` again."""
    advice = _advice(t, viewer, now)
    if t.finished_at is None:
        advice = _with_house_bots(t, advice)
        # D9: polls are the player's contact, so stay well inside the reconnect window; but an
        # intro and the whole turn after it may pass in one wait.
        timing = t.timing
        most = max(timing.reconnect_ms // 2, timing.intro_ms + timing.turn_ms + MARGIN_MS)
        advice = min(advice, most, timing.reconnect_ms * 2 // 3)
    return max(MIN_MS, advice)


def header(ms: int) -> str:
    """`Poll-Interval` in seconds with up to three decimals: 1000 → "1", 2350 → "2.35"."""
    whole, part = divmod(ms, 1000)
    return str(whole) if not part else f"{whole}.{part:03d}".rstrip("0")


def answer_times(t: Tournament, player: str) -> list[int]:
    """How long `player` took to play each of their guesses in `t` (skipped turns left out),
    oldest first: from the start of their turn, which includes seeing the row before it."""
    times: list[int] = []
    for rnd in t.rounds:
        duel = rnd.duel_of(player)
        if duel is None:
            continue
        begun = duel.starts_at
        for turn in duel.turns:
            if turn.player == player and not turn.skipped:
                times.append(turn.at - begun)
            begun = turn.at
    return times


def quiet_ms(t: Tournament, player: str, share: float | None = None) -> int:
    """How long into a turn of `player` nobody needs to look for their guess: a share of their
    usual answer time (the geometric mean of their latest answers), then one interval, so that
    an answer seen later than that is rare (docs/decisions.md); 4 s before their first one."""
    times = answer_times(t, player)[-PACE_TURNS:]
    if not times:
        return min(QUIET_MS, t.timing.turn_ms * 2 // 15)
    n = len(times)
    usual = math.exp(sum(math.log(max(1, ms)) for ms in times) / n)
    share = PACE_SHARE if share is None else share
    # Few answers tell a player's usual time less surely: the margin widens like a
    # prediction interval (by √(1 + 1/n) on the log scale).
    factor: float = share ** math.sqrt(1 + 1 / n)
    return round(factor * usual) + EVERY_MS


def _advice(t: Tournament, viewer: Viewer, now: int) -> int:
    if t.finished_at is not None:
        return GROUP_MS if viewer.group is not None else IDLE_MS
    starts_at = t.rounds[-1].starts_at
    if now < starts_at:
        # R2: nothing changes during the intro, and the duels start by the clock.
        return starts_at - now + _in_duels(t, viewer, starts_at)
    return _in_duels(t, viewer, now)


def _in_duels(t: Tournament, viewer: Viewer, now: int) -> int:
    rnd = t.rounds[-1]
    playing_on = any(p.id == viewer.id and p.lives > 0 for p in t.players)
    live = [d for d in rnd.duels if d.ended_at is None]
    if not playing_on:
        # Out, only watching (R9); but free (D14), so a group's leader may seat them anew,
        # once no member of the group plays on here (R22).
        if viewer.group is None:
            wait = OUT_MS
        else:
            wait = GROUP_MS if _group_may_start(t, viewer) else GROUP_WAIT_MS
    elif (own := rnd.duel_of(viewer.id)) is not None and own.ended_at is None:
        if own.to_play == viewer.id:
            return _after_deadline(own, now)
        return _until_answered(t, own, now)
    elif len(live) == 1:
        # Any guess of the last duel may end the round, and the next intro (R2) shows this
        # player's next duel: they must see it from its start.
        wait = _until_answered(t, live[0], now, ROUND_SHARE, ROUND_EVERY_MS)
    elif len(live) == 2:  # the round needs both to end
        wait = TWO_DUELS_MS
    else:
        wait = DUELS_MS
    watched = next((d for d in live if d.id == viewer.watching), None)
    if watched is not None:
        wait = min(wait, _until_answered(t, watched, now))
    return wait


def _group_may_start(t: Tournament, viewer: Viewer) -> bool:
    """R22: the viewer's group may start again once no member is still in a tournament, and
    a member who plays on in this one is (one who left the group since counts until it ends)."""
    group = viewer.group
    return group is not None and not any(
        p.group == group and p.alive and p.id != viewer.id for p in t.players
    )


def _after_deadline(duel: Duel, now: int) -> int:
    deadline = duel.deadline
    return MARGIN_MS if deadline is None else deadline + MARGIN_MS - now


def _with_house_bots(t: Tournament, advice: int) -> int:
    """D18: where house bots play, a person may be the only one polling, and at a quiet hour
    their polls (with the minutely sweep) are all that beats storage's heartbeat: a gap in it
    longer than the outage gap is taken for an outage, which pauses the game (api/service/
    outages.py). A request beats only a heartbeat older than about half that gap, so they poll
    at least every half gap (10 s by default), whatever else the advice."""
    if not any(p.house for p in t.players):
        return advice
    return min(advice, default_outage_gap(t.timing) // 2)


def _house_move(t: Tournament, duel: Duel, now: int) -> int | None:
    """D18: a house bot plays at a time the stored tournament already tells (core/house.py):
    just after it, or after the turn's deadline when it lets the turn go; None when the player
    to play is not a house bot."""
    bots = t.house_bots()
    if duel.to_play not in bots:
        return None
    from core.house import move_at  # loads nothing new: next_deadline has imported it

    at = move_at(t.seed, duel, bots)
    return _after_deadline(duel, now) if at is None else max(0, at - now) + MARGIN_MS


def _until_answered(
    t: Tournament, duel: Duel, now: int, share: float | None = None, every: int | None = None
) -> int:
    """Until the player to play may have answered: nothing in the quiet start of the turn,
    then every `every` (`EVERY_MS`), and never later than just after the turn's deadline (a
    skip, R11, passes the turn on). A house bot's move has a known time: just after it."""
    known = _house_move(t, duel, now)
    if known is not None:
        return known
    quiet_until = duel.turn_started_at + quiet_ms(t, duel.to_play, share)
    wait = quiet_until - now if now < quiet_until else (EVERY_MS if every is None else every)
    return min(wait, _after_deadline(duel, now))
