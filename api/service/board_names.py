"""R25: a nickname may not look like the name of someone shown on a leaderboard (a Cyrillic
`РауРаl` beside `PayPal`), wherever the renaming player is.

The leaderboards are snapshots the sweep refreshes once a minute (api/service/leaderboards.py).
Each instance keeps the look-alike keys (UTS #39 skeletons, `names.key`) of every name on them,
rebuilt from the stored snapshots at most once per `every_ms`, on the first rename after that.
Cost: one read of each of the 14 boards (0.5–1 read unit each: docs/benchmarks.md) a minute per
instance that renames anybody, 14 × 100 keys at most in memory, and per rename one dictionary
look-up beside the key the lobby check computes anyway. A name that reached a board less than a
minute ago may be missed until the next rebuild (the board itself is that old).
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict

from api.service import names
from api.service.context import Context
from api.service.leaderboards import BOARDS, REFRESH_MS
from api.storage.repository import StorageError

log = logging.getLogger("wordle_tournament")

MAX_NAMES = 5_000  # a bound on the keys kept (14 boards of 100 are 1,400)


class BoardNames:
    def __init__(self, ctx: Context, every_ms: int = REFRESH_MS) -> None:
        self.ctx = ctx
        self.every_ms = every_ms
        self._lock = threading.Lock()
        self._keys: dict[str, frozenset[str]] = {}
        self._read_at: int | None = None

    def holders(self, key: str) -> frozenset[str]:
        """The ids of the players shown on a leaderboard whose name has this look-alike key."""
        self._refresh_if_stale()
        return self._keys.get(key, frozenset())

    def _refresh_if_stale(self) -> None:
        now = self.ctx.now()
        if self._read_at is not None and now - self._read_at < self.every_ms:
            return
        if not self._lock.acquire(blocking=self._read_at is None):
            return  # another thread is reading them: use the keys already there
        try:
            keys: defaultdict[str, set[str]] = defaultdict(set)
            for name in BOARDS:
                board = self.ctx.repo.get_board(name)
                for line in board.top if board is not None else ():
                    if len(keys) < MAX_NAMES:
                        keys[names.key(line.nickname)].add(line.player_id)
            self._keys = {key: frozenset(ids) for key, ids in keys.items()}
            self._read_at = now
        except StorageError as exc:
            # The last keys stay; a rename is not refused because a board could not be read.
            log.warning("leaderboard names not read", extra={"fields": {"error": str(exc)}})
        finally:
            self._lock.release()
