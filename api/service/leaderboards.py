"""Leaderboards (R15): the top 100 by rating among the players who finished a tournament in the
last 30 days, for everyone and per language, and the caller's own rank (core/leaderboard.py).

Nothing here scans the players. Each place fixed moves the player's entry in the sparse, sharded
`active` index (their statistics, written in the same transaction). The players fall in 16 parts
(the index's shards); the boards of each part are built from that part alone and stored. Once a
minute the sweep's refresh (claimed by one caller at a time) reads the stalest parts anew, as
many as its time budget allows and at least one, merges every part into every board (the top 100
and how many players hold each rating) and stores them as snapshots, in copies. A request reads
one copy of one snapshot; with a token, also the caller's statistics, and their rank is a count
over the snapshot's histogram.

How exact: the top 100 and the other players' ratings are as of when their parts were read
(`as_of` is the oldest part's time); the caller's own rating is as of now, and the caller is
never counted above themselves (what their part held of them follows from when it was read).
Off by at most one place when the caller had two results recorded since their part was read, or
one while it was being read.

D19: a player fair play holds (flagged or confirmed) is on no board: their statistics leave the
`active` index in the transaction that flags them, and each refresh reads who is held (the
operators' review partition: the few players whose status is not ok, one small Query) and
merges the parts read before without them, so they are off every board from the next refresh
(about a minute) at any scale; their own rank is none at once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

import wordlists
from api.service.context import Context, guarded
from api.service.matchmaking import check_language
from api.storage.records import PlayerRecord
from api.storage.repository import StorageError
from core import leaderboard as lb
from core.fairplay.record import listed

log = logging.getLogger("wordle_tournament")

REFRESH_MS = 60_000
# How long one refresh may go on reading parts (it reads at least one): at a million active
# players a part takes a few seconds, so the 16 parts are renewed over a few minutes.
REFRESH_BUDGET_S = 8.0
BOARDS = (lb.ALL, *wordlists.LANGUAGES)


class Leaderboards:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def board(self, language: Any, caller: PlayerRecord | None) -> tuple[dict[str, Any], str]:
        """The board's view, and its entity tag (for anonymous requests)."""
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
            fairplay = found[0].fairplay if found else None
            view["you"] = {
                "player_id": caller.id,
                "nickname": caller.nickname,
                "rating": caller.rating,
                "rank": lb.rank(snapshot, caller.id, stats, self.ctx.now(), fairplay),
            }
        return view, board_etag(name, snapshot)

    def refresh(
        self, now: int | None = None, budget_s: float = REFRESH_BUDGET_S
    ) -> dict[str, lb.Board]:
        """Read the stalest parts of the active players anew (at least one, more while
        `budget_s` seconds last; every part missing so far), then merge all parts into every
        board and store them (each copy replaced only by a newer snapshot)."""
        now = self.ctx.now() if now is None else now
        repo = self.ctx.repo
        parts = repo.get_parts()
        stalest = sorted(range(lb.PARTS), key=lambda k: _read_at(parts.get(k)))
        started = time.monotonic()
        for done, part in enumerate(stalest):
            if done and part in parts and time.monotonic() - started >= budget_s:
                break
            parts[part] = lb.build(repo.active_players(now - lb.WINDOW_MS, part), now, BOARDS)
            repo.save_part(part, parts[part])
        read_at = tuple(_read_at(parts.get(k)) for k in range(lb.PARTS))
        held = {s.player_id for s in repo.fair_play_reviews() if not listed(s.fairplay)}
        boards = {
            name: lb.merge(
                name, [lb.without(p[name], held) for p in parts.values() if name in p], read_at
            )
            for name in BOARDS
        }
        for board in boards.values():
            repo.save_board(board)
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


def _read_at(part: Mapping[str, lb.Board] | None) -> int:
    """When a part was read (0: never)."""
    return 0 if part is None else max((b.as_of for b in part.values()), default=0)


def board_etag(name: str, board: lb.Board) -> str:
    """The snapshot's entity tag (anonymous requests: the same answer for everyone): it changes
    whenever any part was read anew."""
    return f'"b.{name}.{board.renewed_at}"'
