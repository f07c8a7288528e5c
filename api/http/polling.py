"""When a client should poll the state again: soon while something is about to change."""

from __future__ import annotations

from typing import Any

FAST_S = 1  # the opponent is to play: their guess should show within about a second
EARLY_S = 2  # the opponent's turn has only just begun: guesses this fast are rare
SLOW_S = 3  # waiting for other duels to end, or watching
IDLE_S = 5  # our own turn, or the tournament is over


def poll_interval(view: dict[str, Any]) -> int:
    now = view["server_time"]
    if view["phase"] == "finished":
        return IDLE_S * 6
    if view["phase"] == "intro":
        left_ms = (view["phase_deadline"] or now) - now
        return max(FAST_S, min(IDLE_S, left_ms // 1000))
    duel = view["duel"]
    if duel is None or duel["result"] is not None:
        return SLOW_S
    if duel["your_turn"]:
        # Only our own guess changes the board; the deadline is known. Poll to catch the end.
        left_ms = (duel["deadline"] or now) - now
        return max(FAST_S, min(IDLE_S, left_ms // 1000))
    # The opponent is to play. In the first sixth of the turn (5 s of 30) a guess is rare, so
    # polling every 2 s there costs little staleness and saves a third of those polls.
    turn_ms = view["timers"]["turn_ms"]
    started = (duel["deadline"] or now) - turn_ms
    return EARLY_S if now - started < min(5_000, turn_ms // 6) else FAST_S
