"""Leaderboards (R15): the top 100 by rating among the players who finished a tournament in the
last 30 days, for everyone and per language, and the caller's own rank (core/leaderboard.py).

Nothing here scans the players. Each place fixed moves the player's entry in the sparse, sharded
`active` index (their statistics, written in the same transaction). Once a minute, the sweep's
refresh (claimed by one caller at a time) reads the index from 30 days ago on, builds every
board in one pass (the top 100 and how many players hold each rating) and stores them as
snapshots, in copies. A request reads one copy of one snapshot; with a token, also the caller's
statistics, and their rank is a count over the snapshot's histogram.

How exact: the top 100 and the other players' ratings are as of the snapshot (`as_of`, at most
a refresh interval old); the caller's own rating is as of now, and the caller is never counted
above themselves. Off by at most one place when the caller had two results recorded since the
snapshot, or one while it was being built.
"""

from __future__ import annotations

import logging
from typing import Any

import wordlists
from api.service.context import Context, guarded
from api.service.matchmaking import check_language
from api.storage.records import PlayerRecord
from api.storage.repository import StorageError
from core import leaderboard as lb

log = logging.getLogger("wordle_tournament")

REFRESH_MS = 60_000
BOARDS = (lb.ALL, *wordlists.LANGUAGES)


class Leaderboards:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def board(self, language: Any, caller: PlayerRecord | None) -> dict[str, Any]:
        name = lb.ALL if language is None else check_language(language)
        snapshot = guarded(lambda: self.ctx.repo.get_board(name))
        if snapshot is None:  # never refreshed yet (a new table): build them all now
            snapshot = guarded(lambda: self.refresh())[name]
        ranks = snapshot.ranks()
        view: dict[str, Any] = {
            "board": name,
            "as_of": snapshot.as_of,
            "window_days": lb.WINDOW_MS // 86_400_000,
            "players": snapshot.players,
            "top": [
                {
                    "rank": rank,
                    "player_id": line.player_id,
                    "nickname": line.nickname,
                    "rating": line.rating,
                    "last_played": line.played_at,
                }
                for rank, line in zip(ranks, snapshot.top, strict=True)
            ],
        }
        if caller is not None:
            found = guarded(lambda: self.ctx.repo.get_stats([caller.id]))
            stats = found[0].stats if found else None
            view["you"] = {
                "player_id": caller.id,
                "nickname": caller.nickname,
                "rating": caller.rating,
                "rank": lb.rank(snapshot, stats, self.ctx.now()),
            }
        return view

    def refresh(self, now: int | None = None) -> dict[str, lb.Board]:
        """Build every board from the players active since 30 days before `now`, and store
        them (each copy replaced only by a newer snapshot)."""
        now = self.ctx.now() if now is None else now
        entries = self.ctx.repo.active_players(now - lb.WINDOW_MS)
        boards = lb.build(entries, now, BOARDS)
        for board in boards.values():
            self.ctx.repo.save_board(board)
        return boards

    def refresh_if_due(self) -> int:
        """The sweep's part: refresh the boards if nobody did in the last REFRESH_MS. Returns
        how many boards it stored; a storage failure leaves them for the next sweep."""
        now = self.ctx.now()
        try:
            if not self.ctx.repo.claim_refresh(now, REFRESH_MS):
                return 0
            return len(self.refresh(now))
        except StorageError as exc:
            log.warning("leaderboards not refreshed", extra={"fields": {"error": str(exc)}})
            return 0


def board_etag(view: dict[str, Any]) -> str:
    """The snapshot's entity tag (anonymous requests: the same answer for everyone)."""
    return f'"b.{view["board"]}.{view["as_of"]}"'
