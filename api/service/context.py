"""What every part of the service shares: storage, settings, the clock and randomness."""

from __future__ import annotations

import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from api.config import Settings
from api.service import errors
from api.service.limits import Budget, Limiter
from api.service.outages import OutageWatch
from api.storage import repository as storage
from api.words import word_source
from core.outages import Outage
from core.words import WordSource

T = TypeVar("T")

CONFLICT_ATTEMPTS = 12


def id_pattern(prefix: str) -> str:
    """The ids `Context.new_id` makes for one kind: `<prefix>_<16 hex digits>`."""
    return f"{prefix}_[0-9a-f]{{16}}"


_ID = re.compile(id_pattern("[a-z]"))


def is_id(value: object, prefix: str) -> bool:
    """Whether `value` could be an id of that kind (checked before any storage read, so that a
    long or odd id never reaches DynamoDB's key limits)."""
    return (
        isinstance(value, str)
        and value.startswith(f"{prefix}_")
        and _ID.fullmatch(value) is not None
    )


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


def words_for(language: str) -> WordSource:
    """Core's view of one language's word lists (loaded lazily by `wordlists`), with the
    solver's lexicon that house bots play from (D18; built on first use: api/words.py)."""
    return word_source(language)


@dataclass
class Context:
    """Built once per process by api/bootstrap.py (tests build their own, with a fake clock and
    seeded randomness)."""

    repo: storage.Repository
    settings: Settings = field(default_factory=Settings)
    clock: Callable[[], int] = wall_clock_ms
    rng: random.Random = field(default_factory=random.SystemRandom)
    words: Callable[[str], WordSource] = words_for
    # The numbers rate limits sample budgets with (api/service/limits.py), never the game's
    # (None: unseeded); a test that seeds the game seeds these too.
    sampling: random.Random | None = None
    limiter: Limiter = field(init=False, repr=False)
    outage_watch: OutageWatch | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.limiter = Limiter(self.repo, self.now, self.settings.rate_limits, self.sampling)
        gap = self.settings.outage_gap
        self.outage_watch = (
            OutageWatch(
                self.repo,
                self.now,
                self.settings.heartbeat_ms,
                gap,
                self.settings.layout.clock_copies,
                self.sampling,
            )
            if gap
            else None
        )

    def outages(self, now: int | None = None) -> tuple[Outage, ...]:
        """The storage outages recorded so far (api/service/outages.py)."""
        watch = self.outage_watch
        return () if watch is None else guarded(lambda: watch.outages(now))

    def now(self) -> int:
        return self.clock()

    def new_id(self, prefix: str) -> str:
        """`<prefix>_<16 hex digits>` (see `id_pattern`)."""
        return f"{prefix}_{secrets.token_hex(8)}"

    def limit(self, key: str, per: int, window_s: int, sample: int = 1) -> None:
        """Allow `per` requests for `key` in any `window_s` seconds, shared by every instance
        (a 429 when over; see api/service/limits.py)."""
        self.limiter.spend(key, Budget(per, window_s, sample))


def guarded(action: Callable[[], T]) -> T:
    """Run a storage action, turning an unreachable store into a 503 for the client and a
    request the store refused as invalid into a 400."""
    try:
        return action()
    except storage.Unavailable as exc:
        raise errors.StorageUnavailable(
            "storage is unavailable, try again shortly", exc.retry_after
        ) from exc
    except storage.Rejected as exc:
        raise errors.BadRequest("the request could not be stored as sent") from exc


def retry_on_conflict(attempt: Callable[[], T]) -> T:
    """Read, decide and write again when another request wrote first (optimistic locking)."""
    for _ in range(CONFLICT_ATTEMPTS):
        try:
            return guarded(attempt)
        except storage.Conflict:
            continue
    raise errors.Busy("the game is busy, try again", retry_after=1)
