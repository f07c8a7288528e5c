"""D4, R9: what a viewer may see. Secrets appear only in duels that have ended."""

from __future__ import annotations

from typing import Any

from core.duel import Duel
from core.tournament import Round, Tournament

JSON = dict[str, Any]


def duel_view(duel: Duel, viewer: str | None, now: int) -> JSON:
    """The shared board of one duel as a player or a spectator sees it."""
    over = duel.ended_at is not None
    view: JSON = {
        "id": duel.id,
        "players": list(duel.players),
        "word_length": len(duel.secret),
        "rows": [
            {"by": t.player, "skipped": True}
            if t.word is None
            else {"by": t.player, "tiles": list(t.word), "marks": t.marks}
            for t in duel.turns
        ],
        "turns_used": {p: duel.turns_used(p) for p in duel.players},
        "starts_at": duel.starts_at,
        "to_play": None if over else duel.to_play,
        "deadline": duel.deadline,
        "your_turn": (not over) and now >= duel.starts_at and duel.to_play == viewer,
        "result": _result(duel),
    }
    if over:
        view["secret"] = list(duel.secret)
    return view


def duel_summary(duel: Duel) -> JSON:
    return {
        "id": duel.id,
        "players": list(duel.players),
        "rows": len(duel.turns),
        "word_length": len(duel.secret),
        "result": _result(duel),
    }


def tournament_view(t: Tournament, viewer: str | None, now: int) -> JSON:
    """The compact state a client polls: everything one screen needs, for `viewer`."""
    rnd: Round = t.rounds[-1]
    phase = t.phase(now)
    own = rnd.duel_of(viewer) if viewer is not None else None
    return {
        "id": t.id,
        "language": t.language,
        "phase": phase,
        "phase_deadline": rnd.starts_at if phase == "intro" else None,
        "round": rnd.number,
        "server_time": now,
        "finished_at": t.finished_at,
        "timers": {
            "turn_ms": t.timing.turn_ms,
            "intro_ms": t.timing.intro_ms,
            "reconnect_ms": t.timing.reconnect_ms,
        },
        "players": [
            {
                "id": p.id,
                "nickname": p.nickname,
                "bot": p.bot,
                "lives": p.lives,
                "status": p.status,
                "place": p.place,
                "rating_change": p.rating_change,
            }
            for p in t.players
        ],
        "pairings": [list(d.players) for d in rnd.duels],
        "bye": rnd.bye,
        "you": viewer,
        "duel": duel_view(own, viewer, now) if own is not None else None,
        "duels": [duel_summary(d) for d in rnd.duels],
    }


def _result(duel: Duel) -> JSON | None:
    if duel.ended_at is None:
        return None
    kind = "draw" if duel.winner is None else ("forfeit" if duel.forfeit else "win")
    return {"kind": kind, "winner": duel.winner, "at": duel.ended_at}
