"""Leaderboards: players ranked by rating (R15) among those who finished a tournament in the last
30 days, one board for everyone and one per language.

A board is a snapshot of every active player: the top 100 and how many players hold each rating
(a histogram), so that anyone's rank is a count, not a scan. It is built in PARTS parts of the
players, each read at its own time (a refresh may renew only the stalest parts) and merged.
Ranks use competition ranking as places do (D1): 1 + the number of players rated strictly
higher.

The caller's own rank compares their rating now with everyone else's in the snapshot. The
snapshot may hold the caller too, at the rating they had then: `counted_at` tells which, from
what their statistics kept of the result before the latest (core/stats.py), so that they are
never counted above themselves.

D19: a player whose fair-play record is held (flagged or confirmed, core.fairplay.record) is on
no board: storage leaves them out of what a snapshot reads (`indexed`), a part read before they
were held is merged `without` them, and their own rank is none. A player cleared since their
part was read was not counted by it.
"""

from __future__ import annotations

import bisect
import heapq
import zlib
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from core.fairplay.record import FairPlay, listed
from core.stats import Stats

ALL = "all"  # the board of every language
WINDOW_MS = 30 * 86_400_000  # finished a tournament within the last 30 days
TOP = 100
# Players are read in parts, each snapshot on its own (a refresh may renew only some): which
# part a player is in never changes. Storage shards its index of active players the same way.
PARTS = 16


def part_of(player_id: str) -> int:
    return zlib.crc32(player_id.encode()) % PARTS


@dataclass(frozen=True, slots=True)
class Entry:
    """An active player as a snapshot reads them."""

    player_id: str
    nickname: str
    rating: int
    last_played: int
    languages: Mapping[str, int]  # language → last finished


@dataclass(frozen=True, slots=True)
class Listed:
    """A line of a board's top list."""

    player_id: str
    nickname: str
    rating: int
    played_at: int  # last finished on this board


@dataclass(frozen=True, slots=True)
class Board:
    name: str  # ALL or a language code
    as_of: int  # the oldest part's snapshot time
    top: tuple[Listed, ...]  # best first: rating, then who finished there first, then id
    histogram: tuple[tuple[int, int], ...]  # (rating, players), highest rating first
    parts_as_of: tuple[int, ...] = ()  # when each part was read (0: never); () if one part

    @property
    def renewed_at(self) -> int:
        """When its newest part was read: a snapshot renewed later replaces this one."""
        return max(self.parts_as_of, default=self.as_of)

    def as_of_part(self, part: int) -> int:
        """When the part holding a player (`part_of`) was read."""
        return self.parts_as_of[part] if self.parts_as_of else self.as_of

    @property
    def players(self) -> int:
        return sum(n for _, n in self.histogram)

    def above(self, rating: int) -> int:
        """How many players of the snapshot are rated strictly above `rating`."""
        ratings = [-r for r, _ in self.histogram]  # ascending
        cut = bisect.bisect_left(ratings, -rating)
        return sum(n for _, n in self.histogram[:cut])

    def ranks(self) -> list[int]:
        """The rank of each line of `top` (D1: equal ratings share one)."""
        ranks: list[int] = []
        for i, line in enumerate(self.top):
            tied = i > 0 and self.top[i - 1].rating == line.rating
            ranks.append(ranks[-1] if tied else i + 1)
        return ranks


def _played_on(languages: Mapping[str, int], last_played: int | None, board: str) -> int | None:
    return last_played if board == ALL else languages.get(board)


def build(entries: Iterable[Entry], as_of: int, boards: Sequence[str]) -> dict[str, Board]:
    """Every board of `boards` from the active players in `entries`, as of `as_of`."""
    since = as_of - WINDOW_MS
    lines: dict[str, list[Listed]] = {name: [] for name in boards}
    counts: dict[str, Counter[int]] = {name: Counter() for name in boards}
    for e in entries:
        for name in boards:
            at = _played_on(e.languages, e.last_played, name)
            if at is None or at < since:
                continue
            lines[name].append(Listed(e.player_id, e.nickname, e.rating, at))
            counts[name][e.rating] += 1
    return {
        name: Board(
            name,
            as_of,
            tuple(heapq.nsmallest(TOP, lines[name], key=_order)),
            tuple(sorted(counts[name].items(), reverse=True)),
        )
        for name in boards
    }


def merge(name: str, parts: Sequence[Board], parts_as_of: tuple[int, ...]) -> Board:
    """One board from the same board of disjoint parts of the players."""
    counts: Counter[int] = Counter()
    for part in parts:
        for rating, players in part.histogram:
            counts[rating] += players
    lines = (line for part in parts for line in part.top)
    return Board(
        name,
        min((part.as_of for part in parts), default=0),
        tuple(heapq.nsmallest(TOP, lines, key=_order)),
        tuple(sorted(counts.items(), reverse=True)),
        parts_as_of,
    )


def without(board: Board, players: Collection[str]) -> Board:
    """`board` without the lines of `players` in its top, nor their counts in its histogram
    (a part read before they were held, D19). Others of them the board counted, below its
    top, stay in the histogram: at most one place off for the ranks of those below them."""
    gone = [line for line in board.top if line.player_id in players]
    if not gone:
        return board
    counts = Counter(dict(board.histogram))
    for line in gone:
        counts[line.rating] -= 1
    return replace(
        board,
        top=tuple(line for line in board.top if line.player_id not in players),
        histogram=tuple(sorted(((r, n) for r, n in counts.items() if n > 0), reverse=True)),
    )


def _order(line: Listed) -> tuple[int, int, str]:
    return -line.rating, line.played_at, line.player_id


def indexed(stats: Stats, fairplay: FairPlay | None) -> bool:
    """Whether a snapshot reads this player at all (storage's index of active players): no bot,
    has finished a tournament, and not held by fair play (D19)."""
    return not stats.bot and stats.last_played is not None and listed(fairplay)


def on_board(stats: Stats | None, board: str, now: int, fairplay: FairPlay | None = None) -> bool:
    """Whether a player belongs on `board` now: not a bot, not held by fair play (D19),
    finished there in the window."""
    if stats is None or stats.bot or not listed(fairplay):
        return False
    at = _played_on(stats.languages, stats.last_played, board)
    return at is not None and at >= now - WINDOW_MS


def counted_at(stats: Stats, board: str, as_of: int) -> int | None:
    """The rating at which a snapshot of `board` taken at `as_of` counted this player, or None
    if it did not count them (or the statistics cannot tell: two results since the snapshot).
    """
    if stats.bot or stats.recorded_at is None:
        return None
    if stats.recorded_at <= as_of:  # nothing recorded since the snapshot
        now_at = _played_on(stats.languages, stats.last_played, board)
        return stats.rating if _within(now_at, as_of) else None
    before = stats.before
    if before is None or before.recorded_at is None or before.recorded_at > as_of:
        return None  # a first result since the snapshot, or two of them
    # The latest result is the only one since: every language but its own is as it was.
    earlier = {k: v for k, v in stats.languages.items() if k != stats.latest_language}
    if before.language_played is not None and stats.latest_language is not None:
        earlier[stats.latest_language] = before.language_played
    then_at = max(earlier.values(), default=None) if board == ALL else earlier.get(board)
    return before.rating if _within(then_at, as_of) else None


def _within(at: int | None, as_of: int) -> bool:
    return at is not None and as_of - WINDOW_MS <= at <= as_of


def rank(
    board: Board,
    player_id: str,
    stats: Stats | None,
    now: int,
    fairplay: FairPlay | None = None,
) -> int | None:
    """The player's rank on `board` now (None: not on it), against the snapshot."""
    if stats is None or not on_board(stats, board.name, now, fairplay):
        return None
    above = board.above(stats.rating)
    as_of = board.as_of_part(part_of(player_id))
    then = counted_at(stats, board.name, as_of)
    if fairplay is not None and fairplay.status_at is not None and fairplay.status_at > as_of:
        then = None  # listed again (cleared) since the part was read: it held them out
    if then is not None and then > stats.rating:
        above -= 1  # the snapshot counted this very player above their rating now
    return 1 + above
