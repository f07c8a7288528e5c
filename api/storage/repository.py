"""The repository interface that the service layer talks to.

Reads return records with the version they were read at. `commit` writes several records at once,
all or nothing, each conditional on the version it was read at: a record read at version v is
written as v + 1 only if the stored one is still v (a new record: only if none exists).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

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


class StorageError(Exception):
    pass


class Conflict(StorageError):
    """Someone else wrote one of the records first: re-read and decide again."""


class Rejected(StorageError):
    """The store refused the request itself as invalid (e.g. DynamoDB's ValidationException for
    a key over its size limit): retrying the same request cannot help."""


class Unavailable(StorageError):
    """The store cannot be reached or is throttling; the request may be retried later."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Put:
    """Write `record`. `new` means it must not exist yet; otherwise its version must match."""

    record: Record
    new: bool = False


@dataclass(frozen=True, slots=True)
class Delete:
    record: Record


Write = Put | Delete


class Repository(ABC):
    layout: Layout = Layout()  # how the indexes' shared partitions spread over keys

    @abstractmethod
    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        """`consistent=False` may miss a write of the last second, for half the read cost."""

    @abstractmethod
    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        """The players that exist, in the order asked."""

    @abstractmethod
    def get_lobby(self, lobby_id: str) -> LobbyRecord | None: ...

    @abstractmethod
    def get_tournament(self, tournament_id: str) -> TournamentRecord | None: ...

    @abstractmethod
    def get_group(self, group_id: str) -> GroupRecord | None: ...

    @abstractmethod
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

    @abstractmethod
    def due_tournaments(self, now: int, limit: int) -> list[str]:
        """Ids of live tournaments whose next deadline is at or before `now` (for the sweep),
        earliest first: at most `limit`, from every shard (a bounded read of each, so a shard
        with a backlog may give some of its due ones to the next call)."""

    @abstractmethod
    def due_lobbies(self, now: int, limit: int) -> list[str]:
        """Ids of open lobbies due for the sweep at or before `now` (D15, D16), earliest first.
        Eventually consistent, like `open_lobbies`."""

    @abstractmethod
    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        """D9: record that `player_id` was heard from at `now`, without a version bump."""

    @abstractmethod
    def touch_lobby(self, lobby_id: str, player_id: str, now: int) -> None:
        """D9, D16: the same for a player waiting in an open lobby. The stamp is folded into the
        seat on the next read (`LobbySeat.seen`); a commit of the lobby starts the stamps anew,
        so a stamp that races a commit may be lost (the next request stamps again)."""

    @abstractmethod
    def touch_player(self, player_id: str, now: int) -> None:
        """D9: record that `player_id` was heard from at `now` (PlayerRecord.last_contact),
        without a version bump; never moves a stamp back."""

    @abstractmethod
    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        """Move a tournament in the deadline index without a version bump (no-op on conflict)."""

    @abstractmethod
    def reschedule_lobby(self, lobby_id: str, version: int, due: int | None) -> None:
        """The same for an open lobby."""

    @abstractmethod
    def commit(self, writes: Sequence[Write]) -> None:
        """Apply every write or none; raises Conflict if a version no longer matches."""

    @abstractmethod
    def get_clock(self, *, consistent: bool = False) -> ClockRecord | None:
        """Storage's heartbeat (None before the first beat)."""

    @abstractmethod
    def put_clock(self, expected: ClockRecord | None, new: ClockRecord) -> bool:
        """Replace the heartbeat if it is still `expected` (None: if there is none yet);
        False when someone else beat first."""

    @abstractmethod
    def count(self, key: str, window: int, window_ms: int, add: int) -> tuple[int, int]:
        """Rate limits: add `add` (may be negative) to `key`'s count in window number `window`
        (windows are `window_ms` long) and return (that window's count, the previous one's).

        Atomic, so concurrent counts never lose one; a retried call whose first attempt had
        landed counts once. Counts of older windows are forgotten.
        """

    # ------------------------------------------------------------------ players' records

    @abstractmethod
    def get_stats(self, player_ids: Sequence[str]) -> list[StatsRecord]:
        """The statistics of those players who have any, in the order asked (strongly
        consistent: they are read to be written)."""

    @abstractmethod
    def history(
        self, player_id: str, limit: int, after: tuple[int, str] | None = None
    ) -> list[HistoryRecord]:
        """At most `limit` lines of the player's history, newest first (by the time the place
        was fixed, then the tournament's id): those after `after`, the (finished_at,
        tournament_id) of the last line of the page before. Read through an eventually
        consistent index: a line written a moment ago may not be there yet."""

    @abstractmethod
    def active_players(self, since: int, part: int | None = None) -> Iterator[Entry]:
        """Every player (bots aside) whose statistics show a finish at or after `since`, of
        one part (core.leaderboard.part_of) or of all, from an eventually consistent index:
        what a leaderboard snapshot reads."""

    @abstractmethod
    def get_board(self, name: str) -> Board | None:
        """The stored snapshot of one leaderboard (None before the first refresh)."""

    @abstractmethod
    def save_board(self, board: Board) -> None:
        """Store a snapshot, unless one at least as new is stored already."""

    @abstractmethod
    def get_parts(self) -> dict[int, dict[str, Board]]:
        """Every stored part snapshot: part → the boards of that part's players."""

    @abstractmethod
    def save_part(self, part: int, boards: Mapping[str, Board]) -> None:
        """Store one part's boards (all built at one time), unless newer ones are stored."""

    @abstractmethod
    def claim_refresh(self, now: int, every_ms: int) -> bool:
        """True for the one caller that may refresh the leaderboards now: nobody claimed it
        within the last `every_ms`. A retried claim that had landed is still ours."""

    def ping(self) -> None:  # noqa: B027 - optional hook
        """Raise Unavailable if the store cannot be reached."""

    def describe(self) -> dict[str, str | None]:
        """Which store this is and its table, for /v1/health."""
        return {"store": "memory", "table": None}
