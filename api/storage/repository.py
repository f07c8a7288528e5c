"""The repository interface that the service layer talks to, by concern: players, lobbies and
groups, tournaments, players' history and statistics, leaderboards, rate-limit counters, the
store's heartbeat, and the one commit they all write through. `Repository` is all of them, as
the in-memory fake (api/storage/memory/) and the DynamoDB adapter (api/storage/dynamodb/)
implement it; a caller that needs one concern types against that one.

Reads return records with the version they were read at. `commit` writes several records at once,
all or nothing, each conditional on the version it was read at: a record read at version v is
written as v + 1 only if the stored one is still v (a new record: only if none exists).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from api.storage.layout import Layout
from api.storage.records import (
    ClockRecord,
    GroupRecord,
    HistoryRecord,
    LobbyRecord,
    PlayerRecord,
    Record,
    StatsRecord,
    TournamentRecord,
)
from core.leaderboard import Board, Entry

LOBBIES_PER_BAND = 10  # open lobbies read from each rating band, whatever the number open


def due_page_limit(limit: int, shards: int) -> int:
    """How many due items the sweep reads from each shard to find about the `limit` earliest:
    a shard's fair share twice over (at least 10), so that a sweep over many shards reads a
    bounded number however many are due. A shard with more due than that gives the rest to
    the next sweep."""
    return min(limit, max(10, -(-2 * limit // max(shards, 1))))


class StorageError(Exception):
    pass


class Conflict(StorageError):
    """Someone else wrote one of the records first: re-read and decide again."""


class Rejected(StorageError):
    """The store refused the request itself as invalid (e.g. DynamoDB's ValidationException for
    a key over its size limit): retrying the same request cannot help."""


# Why a store is unavailable (Unavailable.cause): named in the 503's log line and by /v1/health.
UNREACHABLE = "unreachable"  # no connection, or no answer in time
THROTTLED = "throttled"  # over its capacity: DynamoDB's throttling errors
DISK_FULL = "disk_full"  # a local store whose data folder has no room left
TABLE_MISSING = "table_missing"
STORE_FAILED = "store_failed"  # the store's own internal error (a 500)
CAUSES = (UNREACHABLE, THROTTLED, DISK_FULL, TABLE_MISSING, STORE_FAILED)


class Unavailable(StorageError):
    """The store cannot be reached, cannot write or is throttling; the request may be retried
    later. `cause` says which (one of CAUSES)."""

    def __init__(self, message: str, retry_after: int = 1, cause: str = UNREACHABLE) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.cause = cause


@dataclass(frozen=True, slots=True)
class Put:
    """Write `record`. `new` means it must not exist yet; otherwise its version must match."""

    record: Record
    new: bool = False


@dataclass(frozen=True, slots=True)
class Delete:
    record: Record


Write = Put | Delete


class Commits(Protocol):
    def commit(self, writes: Sequence[Write]) -> None:
        """Apply every write or none; raises Conflict if a version no longer matches."""
        ...


class Players(Protocol):
    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        """`consistent=False` may miss a write of the last second, for half the read cost."""
        ...

    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        """The players that exist, in the order asked."""
        ...

    def touch_player(self, player_id: str, now: int) -> None:
        """D9: record that `player_id` was heard from at `now` (PlayerRecord.last_contact),
        without a version bump; never moves a stamp back."""
        ...

    def idle_bots(self, rating: float, window: int, limit: int) -> list[PlayerRecord]:
        """D18: idle house bots (in no lobby and no tournament) rated within `window` of
        `rating`: the `limit` closest at or above it and the `limit` closest below, the closest
        first. Read through the eventually consistent `fill` index (keys.idle_ranges: one
        query per side, two where a side crosses a rating band): a bot claimed a moment ago
        may still be listed, so a claim is a write conditional on the version read."""
        ...


class Lobbies(Protocol):
    """Lobbies, and the groups that fill them."""

    layout: Layout  # how the indexes' shared partitions spread over keys

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None: ...

    def get_group(self, group_id: str) -> GroupRecord | None: ...

    def open_lobbies(
        self,
        language: str,
        rating: float,
        window: int,
        limit: int = LOBBIES_PER_BAND,
        shards: Sequence[int] | None = None,
    ) -> list[LobbyRecord]:
        """Lobbies open for matchmaking in `language` rated within `window` of `rating`.

        Reads at most `limit` lobbies from each shard `shards` (None: every shard of the
        language, `layout.fill_count`) of each 200-point rating band the window touches, the
        fullest first, then the oldest (D6), and keeps those within the window. Read through an
        eventually consistent index: it may miss or show an earlier version of a lobby written
        a moment ago, so callers read a lobby again before they write it.
        """
        ...

    def due_lobbies(self, now: int, limit: int) -> list[str]:
        """Ids of open lobbies due for the sweep at or before `now` (D15, D16), earliest first.
        Eventually consistent, like `open_lobbies`."""
        ...

    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        """D9, D16: the same for a player waiting in an open lobby. The stamp is folded into the
        seat on the next read (`LobbySeat.seen`); a commit of the lobby starts the stamps anew,
        so a stamp that races a commit may be lost (the next request stamps again)."""
        ...

    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        """Move an open lobby in the deadline index without a version bump (no-op on
        conflict)."""
        ...


class Tournaments(Protocol):
    def get_tournament(
        self, tournament_id: str, *, consistent: bool = True
    ) -> TournamentRecord | None:
        """`consistent=False` may miss a write of the last second, for half the read cost."""
        ...

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        """Ids of live tournaments whose next deadline is at or before `now` (for the sweep),
        earliest first: at most `limit`, from every shard (a bounded read of each, so a shard
        with a backlog may give some of its due ones to the next call)."""
        ...

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        """D9: record that `player_id` was heard from at `now`, without a version bump."""
        ...

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        """Move a tournament in the deadline index without a version bump (no-op on conflict)."""
        ...


class History(Protocol):
    """Players' history lines and statistics (written by `commit`, with each place fixed)."""

    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        """The statistics of those players who have any, in the order asked (strongly
        consistent: they are read to be written)."""
        ...

    def history(
        self, player_id: str, limit: int, after: tuple[int, str] | None = None
    ) -> list[HistoryRecord]:
        """At most `limit` lines of the player's history, newest first (by the time the place
        was fixed, then the tournament's id): those after `after`, the (finished_at,
        tournament_id) of the last line of the page before. Read through an eventually
        consistent index: a line written a moment ago may not be there yet."""
        ...

    def fair_play_reviews(self) -> Iterator[StatsRecord]:
        """D19: the statistics of every player whose fair-play status is not ok (flagged,
        confirmed or cleared), oldest status first, from a sparse partition of an eventually
        consistent index: never a scan, and nothing read of the players who are ok."""
        ...


class Leaderboards(Protocol):
    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        """Every player (bots aside) whose statistics show a finish at or after `since`, of
        one part (core.leaderboard.part_of) or of all, from an eventually consistent index:
        what a leaderboard snapshot reads."""
        ...

    def get_board(self, name: str) -> Board | None:
        """The stored snapshot of one leaderboard (None before the first refresh)."""
        ...

    def save_board(self, board: Board) -> None:
        """Store a snapshot, unless one at least as new is stored already."""
        ...

    def get_parts(self) -> dict[int, dict[str, Board]]:
        """Every stored part snapshot: part → the boards of that part's players."""
        ...

    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        """Store one part's boards (all built at one time), unless newer ones are stored."""
        ...

    def claim_refresh(self, now: int, every_ms: int) -> bool:
        """True for the one caller that may refresh the leaderboards now: nobody claimed it
        within the last `every_ms`. A retried claim that had landed is still ours."""
        ...


class Counters(Protocol):
    def count(self, key: str, window: int, window_ms: int, add: int) -> tuple[int, int]:
        """Rate limits: add `add` (may be negative) to `key`'s count in window number `window`
        (windows are `window_ms` long) and return (that window's count, the previous one's).

        Atomic, so concurrent counts never lose one; a retried call whose first attempt had
        landed counts once. Counts of older windows are forgotten.
        """
        ...


class Heartbeat(Protocol):
    """Storage's own clock (api/service/outages.py), and whether it answers at all."""

    def get_clock(self, *, consistent: bool = False, copy: int | None = None) -> ClockRecord | None:
        """Storage's heartbeat (None before the first beat); with `copy`, that copy of it
        (None before it was first written)."""
        ...

    def put_clock_copy(self, copy: int, clock: ClockRecord) -> None:
        """Write `clock`, a beat read from or written to the heartbeat, into copy `copy`,
        unless the copy already holds a beat as recent."""
        ...

    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        """Replace the heartbeat if it is still `expected` (None: if there is none yet);
        False when someone else beat first."""
        ...

    def ping(self) -> None:
        """Raise Unavailable if the store cannot be reached."""
        ...

    def probe(self, now: int) -> None:
        """Write the store's health item (`S#health`, stamped `now`); raise Unavailable if the
        store cannot be written (/v1/health, at most every few seconds per instance)."""
        ...

    def describe(self) -> dict[str, str | None]:
        """Which store this is and its table, for /v1/health."""
        ...


class Repository(
    Commits, Players, Lobbies, Tournaments, History, Leaderboards, Counters, Heartbeat, Protocol
):
    """Every concern at once: what the service's context holds and both stores implement."""
