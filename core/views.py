"""D4, R9: what a viewer may see. Secrets appear only in duels that have ended."""

from __future__ import annotations

from typing import Any

from core import standings
from core.duel import Duel, Turn
from core.tournament_state import Player, Round, Tournament

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


def board(turns: tuple[Turn, ...]) -> list[Any]:
    """The rows of a board, compact: `[tiles, marks]` for a guess, null for a skipped turn.
    Turns alternate (R10), so row i was played by the duel's players[i % 2]."""
    return [None if t.word is None else [list(t.word), t.marks] for t in turns]


def live_duel(duel: Duel) -> JSON:
    """One duel of the current round at a glance (R9: anyone may watch any duel): every row
    with its feedback, whose turn and until when; the secret only once it has ended (D4).

    `rows` stays the number of rows, as in the summaries clients already read."""
    over = duel.ended_at is not None
    entry: JSON = {
        "id": duel.id,
        "players": list(duel.players),
        "rows": len(duel.turns),
        "word_length": len(duel.secret),
        "result": _result(duel),
        "board": board(duel.turns),
        "to_play": None if over else duel.to_play,
        "deadline": duel.deadline,
    }
    if over:
        entry["secret"] = list(duel.secret)
    return entry


def duel_summary(duel: Duel) -> JSON:
    return {
        "id": duel.id,
        "players": list(duel.players),
        "rows": len(duel.turns),
        "word_length": len(duel.secret),
        "result": _result(duel),
    }


def player_view(
    p: Player, rnd: Round, provisional: dict[str, tuple[int, int]], reconnect_ms: int
) -> JSON:
    """A player's line: lives and status now (and for one who left, why: R20 or D9), the start
    rating every change is computed from (D5), the round they went out, and their place and
    rating change — fixed, or provisional while the round that eliminated them is still being
    played (R9, D1)."""
    mine = provisional.get(p.id)
    return {
        "id": p.id,
        "nickname": p.nickname,
        "bot": p.bot,
        "lives": p.lives,
        "status": p.status,
        "left_reason": left_reason(p, reconnect_ms),
        "place": p.place,
        "rating_change": p.rating_change,
        "rating": p.rating,
        "out_round": (rnd.number if p.out_round is None else p.out_round) if p.lives == 0 else None,
        "provisional": None if mine is None else {"place": mine[0], "rating_change": mine[1]},
    }


def left_reason(p: Player, reconnect_ms: int) -> str | None:
    """Why a player who left did: "away" when the reconnect window ran out (D9: the server
    removes them at their last contact + the window), "left" when they chose to (R20); None
    for a player who did not leave."""
    if p.left_at is None:
        return None
    return "away" if p.left_at == p.last_contact + reconnect_ms else "left"


def tournament_view(t: Tournament, viewer: str | None, now: int) -> JSON:
    """The compact state a client polls: everything one screen needs, for `viewer`.

    The current round comes whole (every live duel's board); rounds already played are in
    `history_view`, which changes only when a round ends."""
    rnd: Round = t.rounds[-1]
    phase = t.phase(now)
    own = rnd.duel_of(viewer) if viewer is not None else None
    provisional = standings.provisional(t.players)
    return {
        "id": t.id,
        "language": t.language,
        "phase": phase,
        "phase_deadline": rnd.starts_at if phase == "intro" else None,
        "round": rnd.number,
        "intro_at": rnd.intro_at,
        "starts_at": rnd.starts_at,
        "server_time": now,
        "finished_at": t.finished_at,
        "timers": {
            "turn_ms": t.timing.turn_ms,
            "intro_ms": t.timing.intro_ms,
            "reconnect_ms": t.timing.reconnect_ms,
        },
        "players": [player_view(p, rnd, provisional, t.timing.reconnect_ms) for p in t.players],
        "pairings": [list(d.players) for d in rnd.duels],
        "bye": rnd.bye,
        "you": viewer,
        "duel": duel_view(own, viewer, now) if own is not None else None,
        "duels": [live_duel(d) for d in rnd.duels],
        "history_rounds": closed_rounds(t),
    }


def closed_rounds(t: Tournament) -> int:
    """How many rounds have ended: the history grows by one each time this does."""
    return sum(1 for r in t.rounds if r.ended_at is not None)


def history_view(t: Tournament) -> JSON:
    """D2, D4, R8: every round that has ended — pairings, bye, who went out, and each duel's
    final board with its result and secret. It changes only when a round ends."""
    rounds = []
    for rnd in t.rounds:
        if rnd.ended_at is None:
            continue
        rounds.append(
            {
                "number": rnd.number,
                "intro_at": rnd.intro_at,
                "starts_at": rnd.starts_at,
                "ended_at": rnd.ended_at,
                "bye": rnd.bye,
                "out": [p.id for p in t.players if p.lives == 0 and p.out_round == rnd.number],
                "duels": [
                    {
                        "id": d.id,
                        "players": list(d.players),
                        "secret": list(d.secret),
                        "board": board(d.turns),
                        "result": _result(d),
                    }
                    for d in rnd.duels
                ],
            }
        )
    return {"id": t.id, "rounds": rounds}


def summary_view(t: Tournament) -> JSON:
    """The public results of a finished tournament (D1, R8, R16, D4): every player's place and
    rating change, then every round with its final boards and secrets. Only once it has
    finished, when every duel has ended; it never changes after."""
    if t.finished_at is None:
        raise ValueError("a tournament's summary exists once it has finished")
    ordered = sorted(t.players, key=lambda p: (p.place or 0, p.id))
    return {
        "id": t.id,
        "language": t.language,
        "started_at": t.created_at,
        "finished_at": t.finished_at,
        "rounds_played": len(t.rounds),
        "players": [
            {
                "id": p.id,
                "nickname": p.nickname,
                "bot": p.bot,
                "place": p.place,
                "rating": p.rating,
                "rating_change": p.rating_change,
                "out_round": p.out_round if p.lives == 0 else None,  # as in the state
                "rounds_played": p.out_round,  # the winner's too: the last round
                "left": p.left_at is not None,
            }
            for p in ordered
        ],
        "rounds": history_view(t)["rounds"],
    }


def ended_by(t: Tournament, player: str, row: int, duel_id: str | None = None) -> JSON | None:
    """The final board of the duel that `player`'s guess on board row `row` ended, or None if
    that guess did not end its duel. The duel may belong to the round before the current one:
    a guess that ends a round also starts the next."""
    candidates = (
        [d for r in t.rounds for d in r.duels if d.id == duel_id]
        if duel_id is not None
        else [d for r in t.rounds[-2:] for d in r.duels]
    )
    for duel in reversed(candidates):
        if player not in duel.players or len(duel.turns) != row + 1:
            continue
        last = duel.turns[row]
        if last.player == player and last.word is not None and duel.ended_at == last.at:
            return duel_view(duel, player, last.at)
    return None


def _result(duel: Duel) -> JSON | None:
    if duel.ended_at is None:
        return None
    kind = "draw" if duel.winner is None else ("forfeit" if duel.forfeit else "win")
    return {"kind": kind, "winner": duel.winner, "at": duel.ended_at}
