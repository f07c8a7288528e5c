"""When a client should poll the state again: soon while something is about to change."""

from __future__ import annotations

from typing import Any

FAST_S = 1  # the opponent is to play: their guess should show within about a second
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
    return FAST_S
