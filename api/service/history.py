"""Players' history and statistics: a history line and the statistics, written with each place
(R16), and read back a page at a time.

The writes join the transaction that fixes the place and the rating (Tournaments._save), so
they happen exactly when the rating changes: once. The history line is a new item (it cannot be
written twice); the statistics are versioned like every record. Eight places fixed at once
(R8) make 1 + 8 × 3 = 25 writes, well within DynamoDB's 100 per transaction.

D19: the rating change each line, the statistics and the player's rating record is the one fair
play applies (api/service/fairplay.py: a farm's walk-over gains refused), and the statistics
item keeps the player's new fair-play record.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from api.service import errors
from api.service.context import Context, guarded
from api.service.fairplay import judge
from api.storage.records import HistoryRecord, PlayerRecord, StatsRecord
from api.storage.repository import Put, Write
from core.results import Result, result_of
from core.stats import Stats, add
from core.tournament_state import Tournament

PAGE = 20
MAX_PAGE = 50
CURSOR_PATTERN = r"^[0-9]{1,15}\.t_[0-9a-f]{16}$"  # the OpenAPI document's, for `cursor`
_CURSOR = re.compile(r"([0-9]{1,15})\.(t_[0-9a-f]{16})")


@dataclass(frozen=True, slots=True)
class Placements:
    """What fixing some places writes besides the tournament and the players' ratings."""

    writes: list[Write] = field(default_factory=list)  # history lines and statistics
    changes: dict[str, int] = field(default_factory=dict)  # the rating change to apply (D19)


def place_writes(ctx: Context, t: Tournament, placed: Sequence[PlayerRecord]) -> Placements:
    """A history line and the statistics (with the fair-play record) for each player of
    `placed` (their records as read, before this place moves their rating) whose place `t`
    has just fixed, and the rating change each gets (D19: R15–R17's, less refused gains)."""
    if not placed:
        return Placements()
    stored = {s.player_id: s for s in ctx.repo.get_stats([p.id for p in placed])}
    judged = judge(ctx, t, placed, stored)
    now = ctx.now()
    out = Placements()
    for p in placed:
        change = judged[p.id].change
        result = result_of(t, p.id, p.rating)
        result = replace(result, rating_after=result.rating_before + change)
        current = stored.get(p.id)
        bot = t.player(p.id).bot
        stats = add(None if current is None else current.stats, result, p.nickname, p.bot, now)
        fairplay = (None if current is None else current.fairplay) if bot else judged[p.id].record
        out.writes.append(Put(HistoryRecord(p.id, result), new=True))
        if current is None:
            out.writes.append(Put(StatsRecord(p.id, stats, fairplay=fairplay), new=True))
        else:
            out.writes.append(Put(StatsRecord(p.id, stats, current.version, fairplay)))
        out.changes[p.id] = change
    return out


def encode_cursor(result: Result) -> str:
    """The position after `result`: `<finished_at>.<tournament id>` (CURSOR_PATTERN). Clients
    treat it as opaque; any cursor of that form is a position, so any the document allows is
    accepted (a position no line has simply starts there)."""
    return f"{result.finished_at}.{result.tournament_id}"


def decode_cursor(cursor: str) -> tuple[int, str]:
    """The position a cursor stands for: its own form, or the base64url form this API gave
    before (still accepted); anything else is a 422."""
    match = _CURSOR.fullmatch(cursor)
    if match is None and len(cursor) <= 64:
        try:
            padded = cursor + "=" * (-len(cursor) % 4)
            text = base64.urlsafe_b64decode(padded.encode("ascii")).decode("ascii")
            match = _CURSOR.fullmatch(text)
        except (ValueError, binascii.Error, UnicodeError):
            pass
    if match is None:
        raise errors.Invalid("cursor must be a next_cursor this API returned")
    return int(match[1]), match[2]


def history_line(result: Result) -> dict[str, Any]:
    return {
        "tournament_id": result.tournament_id,
        "language": result.language,
        "started_at": result.started_at,
        "finished_at": result.finished_at,
        "place": result.place,
        "rating_before": result.rating_before,
        "rating_after": result.rating_after,
        "rating_change": result.rating_change,
        "rounds_played": result.rounds,
        "duels": {"won": result.won, "drawn": result.drawn, "lost": result.lost},
        "left": result.left,
    }


def stats_view(player: PlayerRecord, stats: Stats | None) -> dict[str, Any]:
    s = stats if stats is not None else Stats(player.nickname, player.rating, player.bot)
    average = s.average_place
    return {
        "rating": player.rating,
        "tournaments_played": s.played,
        "wins": s.wins,
        "podiums": s.podiums,
        "average_place": None if average is None else round(average, 2),
        "win_streak": {"current": s.streak, "best": s.best_streak},
        "duels": {"won": s.duels_won, "drawn": s.duels_drawn, "lost": s.duels_lost},
        "guesses": list(s.guesses),
        "rating_history": [{"at": at, "rating": rating} for at, rating in s.points],
        "last_played": s.last_played,
        "languages": dict(sorted(s.languages.items())),
    }


class PlayerHistory:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def page(self, player: PlayerRecord, cursor: str | None, limit: int) -> dict[str, Any]:
        """One page of the player's finished tournaments, newest first: one Query (one line
        more than the page, to know whether another page follows)."""
        after = None if cursor is None else decode_cursor(cursor)
        lines = guarded(lambda: self.ctx.repo.history(player.id, limit + 1, after))
        page = lines[:limit]
        more = len(lines) > limit
        return {
            "entries": [history_line(r.result) for r in page],
            "next_cursor": encode_cursor(page[-1].result) if more else None,
        }

    def stats(self, player: PlayerRecord) -> dict[str, Any]:
        found = guarded(lambda: self.ctx.repo.get_stats([player.id]))
        return stats_view(player, found[0].stats if found else None)
