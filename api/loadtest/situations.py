"""What a player waits for when they poll: the situations the poll advice tells apart
(api/http/polling.py), read from the last state the player received. The load test and
`bench polls` count polls by situation with it."""

from __future__ import annotations

from typing import Any

INTRO = "intro"
OWN_TURN = "own turn"
OPPONENTS_TURN = "opponent's turn"
LAST_DUEL = "waiting, last duel"
DUELS = "waiting, 2+ duels"
OUT = "out, watching"
OTHER = "other"


def situation(view: dict[str, Any] | None, player_id: str, now: int) -> str:
    """The situation of `player_id` at server time `now`, as `view` shows it (an intro ends by
    the clock, so a poll after its end counts as one in the duels)."""
    if view is None or view["phase"] == "finished":
        return OTHER
    if view["phase"] == "intro" and now < view["starts_at"]:
        return INTRO
    if next(p for p in view["players"] if p["id"] == player_id)["lives"] == 0:
        return OUT
    duel = view["duel"]
    if duel is None or duel["result"] is not None:
        live = sum(d["result"] is None for d in view["duels"])
        return LAST_DUEL if live == 1 else DUELS
    return OWN_TURN if duel["to_play"] == player_id else OPPONENTS_TURN
