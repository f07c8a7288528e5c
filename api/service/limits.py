"""Rate limits shared by every instance: sliding-window counters in storage, cheap per request.

A budget allows `per` requests in any `window_s` seconds, estimated the way a sliding window
counter does: this window's count plus the previous window's, weighted by how much of the
previous window the sliding window still covers. There is no double budget at a boundary: a
burst that used the budget at the end of one window still weighs almost fully at the start of
the next. In any span of d seconds at most per · (1 + d / window_s) get through, like a token
bucket of `per` tokens refilled at per / window_s.

Counting costs one storage write (an atomic ADD that returns both windows: no read). High-volume
routes count a *sample*: one request in `sample`, chosen at random, adds `sample`. Lambda sends a
client's requests to any instance, so counting locally and flushing every k requests would save
little per subject; a random sample costs 1/`sample` of a write per request wherever it runs,
and its estimate is unbiased (off by about sqrt(per · sample) near the budget, which the budgets
leave room for). A count that finds a subject over budget blocks it on this instance until the
estimate falls back under the budget, without further writes; other instances find out at their
own next sample. Exact budgets (sample 1) take back a refused request's count, so a refused
request uses nothing.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from api.service import errors
from api.storage.repository import Repository, Unavailable

MAX_BLOCKS = 50_000  # subjects blocked on one instance at once (a memory bound)


@dataclass(frozen=True, slots=True)
class Counted:
    """A request that was counted: what `Limiter.refund` needs to take it back, and the
    subject's estimate with it."""

    key: str
    window: int
    window_ms: int
    add: int
    estimate: float


@dataclass(frozen=True, slots=True)
class Budget:
    per: int  # requests allowed in any `window_s` seconds
    window_s: int = 60
    sample: int = 1  # count one request in `sample` (1: every request, exactly)

    def __post_init__(self) -> None:
        if self.per < 1 or self.window_s < 1 or self.sample < 1:
            raise ValueError("a budget needs per, window_s and sample >= 1")

    def describe(self) -> str:
        unit = {1: "s", 60: "min", 3600: "h"}
        if self.window_s in unit:
            text = f"{self.per}/{unit[self.window_s]}"
        elif self.window_s % 60 == 0:
            text = f"{self.per}/{self.window_s // 60} min"
        else:
            text = f"{self.per}/{self.window_s} s"
        return text if self.sample == 1 else f"{text} (sampled 1 in {self.sample})"


# ---------------------------------------------------------------------------- the arithmetic


def estimate(current: int, previous: int, elapsed: float) -> float:
    """Requests in the sliding window that ends `elapsed` (a fraction) into the current one."""
    return current + previous * (1.0 - elapsed)


def wait_ms(per: int, current: int, previous: int, window_ms: int, into_ms: int) -> int:
    """How long until one more request fits, if nobody sends any meanwhile (at least 1 ms)."""
    room = per - 1  # the estimate must fall to per - 1 so that the next request makes per
    if current <= room:
        if previous == 0:
            return 1
        # Within this window the previous one's weight falls linearly to 0.
        at = -(-int((1.0 - (room - current) / previous) * window_ms * 1000) // 1000)
        return max(1, min(at, window_ms) - into_ms)
    # In the next window this window's count weighs (1 - g) at g into it.
    later = -(-int((1.0 - room / current) * window_ms * 1000) // 1000)
    return max(1, window_ms - into_ms + later)


# ---------------------------------------------------------------------------- subjects

SHARD_WRITES = 100  # a shared counter's shard takes at most this many counts per second


def spread_shards(budget: Budget) -> int:
    """How many shards a shared budget's counter needs (see `spread`)."""
    rate = budget.per / budget.window_s / budget.sample
    return max(1, math.ceil(rate / SHARD_WRITES))


def spread(key: str, budget: Budget, rng: random.Random) -> tuple[str, Budget]:
    """A budget shared by everyone (a global ceiling) on one counter would be one hot item: at
    more than SHARD_WRITES counts a second it is split over shards `<key>#<n>`, each with its
    share of the budget, and each request counts on one of them at random (the sum of the
    shards' estimates is the global one, within a shard's rounding)."""
    shards = spread_shards(budget)
    if shards == 1:
        return key, budget
    share = Budget(max(1, budget.per // shards), budget.window_s, budget.sample)
    return f"{key}#{rng.randrange(shards)}", share


@lru_cache(maxsize=4096)
def address_subject(address: str | None) -> str:
    """The subject of per-address budgets: an IPv4 address, or an IPv6 /64 (one household's
    or one server's network: counting single IPv6 addresses would give everyone 2^64)."""
    try:
        ip = ipaddress.ip_address((address or "").strip())
    except ValueError:
        return "ip:unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return f"ip:{ip.ipv4_mapped}"
        network = ipaddress.IPv6Network((int(ip) >> 64 << 64, 64))
        return f"ip:{network.compressed}"
    return f"ip:{ip}"


# ---------------------------------------------------------------------------- the limiter


class Limiter:
    """Spends budgets. Thread-safe; its only state is this instance's blocks (a cache)."""

    def __init__(
        self,
        repo: Repository,
        clock: Callable[[], int],
        enabled: bool = True,
        rng: random.Random | None = None,
    ) -> None:
        self.repo = repo
        self.clock = clock
        self.enabled = enabled
        self.rng = rng or random.Random()
        self._lock = threading.Lock()
        self._blocked: dict[str, int] = {}  # subject key -> until (ms)

    def spend(self, key: str, budget: Budget) -> Counted | None:
        """Count one request for `key`; raise TooManyRequests (429) when over `budget`.

        Returns what was counted (None: limits off, not in the sample, or storage down)."""
        if not self.enabled:
            return None
        now = self.clock()
        wait = self.blocked_ms(key)
        if wait:
            raise _too_many(wait)
        if budget.sample > 1 and self.rng.randrange(budget.sample):
            return None  # not in the sample: nothing to count
        window_ms = budget.window_s * 1000
        window, into_ms = divmod(now, window_ms)
        add = budget.sample
        try:
            current, previous = self.repo.count(key, window, window_ms, add)
        except Unavailable:
            return None  # a limit must not turn a storage hiccup into an outage of its own
        found = estimate(current, previous, into_ms / window_ms)
        if found <= budget.per:
            return Counted(key, window, window_ms, add, found)
        if budget.sample == 1:
            with contextlib.suppress(Unavailable):  # a refused request uses nothing
                self.repo.count(key, window, window_ms, -add)
            current -= add
        wait = wait_ms(budget.per, current, previous, window_ms, into_ms)
        self._block(key, now + wait)
        raise _too_many(wait)

    def blocked_ms(self, key: str) -> int:
        """How long `key` stays blocked on this instance (0: it is not), without a write."""
        now = self.clock()
        with self._lock:
            until = self._blocked.get(key)
            if until is not None and now >= until:
                self._blocked.pop(key, None)
        return until - now if until is not None and now < until else 0

    def refund(self, counted: Counted) -> None:
        """Take back a counted request (a later budget of the same request refused it)."""
        with contextlib.suppress(Unavailable):
            self.repo.count(counted.key, counted.window, counted.window_ms, -counted.add)

    def _block(self, key: str, until: int) -> None:
        with self._lock:
            if len(self._blocked) >= MAX_BLOCKS:
                now = self.clock()
                self._blocked = {k: u for k, u in self._blocked.items() if u > now}
                if len(self._blocked) >= MAX_BLOCKS:
                    self._blocked.clear()
            self._blocked[key] = until


def _too_many(wait_ms: int) -> errors.TooManyRequests:
    retry = max(1, -(-wait_ms // 1000))
    return errors.TooManyRequests(f"too many requests; try again in {retry} s", retry_after=retry)
