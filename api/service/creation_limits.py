"""How many players may be created, by whom: budgets that let honest crowds in and keep one
network from using up everyone's.

Fair play, not creation limits, makes a rating farm unprofitable (R18): these budgets only bound
what new players cost (a player item and its counters) and keep any one network from starving
the others. Each is a sliding window counted in storage (api/service/limits.py), so every
instance spends the same budgets, and each is exact: a creation refused at one level is taken
back from the levels it had passed.

| subject | IPv4 | IPv6 | budget |
| --- | --- | --- | --- |
| address | the address | its /64 | `ADDRESS`: 60 a minute |
| network | its /24 | its /48 | `NETWORK`: 120 a minute |
| block | its /16 | its /32 | a quarter of the ceiling (150 a minute at 600) |
| everyone | | | the ceiling, `WT_CREATIONS_PER_MINUTE` (600) |
| everyone, from quiet blocks | | | half the ceiling more (300) |

An address serves a class of 30 twice over within a minute; a carrier's shared address (CGNAT)
holds at most a few thousand people, who need far less (docs/limits-and-outages.md gives the
figures). No block may take more than a quarter of the ceiling, so a flood from a whole /16 or
/32 (let alone a /48) leaves three quarters of it to everyone else. Should floods from several
blocks fill the ceiling, a creation from a *quiet* block (at most `QUIET` creations in the last
minute, this one included) still gets in, from a reserve of half the ceiling: to shut people out
an attacker must keep creating from more than a hundred blocks at once, and the cost stays
bounded by one and a half times the ceiling.
"""

from __future__ import annotations

import ipaddress
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from api.service import errors
from api.service.limits import Budget, Counted, Limiter, spread, spread_shards

ADDRESS = Budget(60, 60)  # a class of 30, twice over, within a minute
NETWORK = Budget(120, 60)  # a /24 or /48: a school's or a carrier's pool of addresses
BLOCK_SHARE = 4  # a /16 or /32 takes at most a quarter of the ceiling
QUIET = 3  # a block with at most this many creations in the last minute is quiet
RESERVE_SHARE = 2  # quiet blocks have half the ceiling more

ScopedSubject = tuple[str, str, str]  # (scope, key, the subject as a person reads it)


class CreationLimited(errors.TooManyRequests):
    """A 429 that says which budget refused the creation: `scope` is "address" (this address,
    or IPv6 /64), "network" (its /24 or /16, IPv6 /48 or /32) or "global" (everyone's)."""

    code = "too_many_new_players"

    def __init__(self, scope: str, retry_after: int, network: str = "") -> None:
        why = {
            "address": "too many new players from your address",
            "network": f"too many new players from your network ({network})",
            "global": "too many new players everywhere at the moment",
        }[scope]
        super().__init__(f"{why}; try again in {retry_after} s", retry_after=retry_after)
        self.details = {"scope": scope, "retry_after": retry_after}
        if network:
            self.details["network"] = network


@dataclass(frozen=True, slots=True)
class Ceilings:
    """The budgets shared by many, from the ceiling (`WT_CREATIONS_PER_MINUTE`)."""

    per_minute: int

    @property
    def block(self) -> Budget:
        return Budget(max(1, self.per_minute // BLOCK_SHARE), 60)

    @property
    def everyone(self) -> Budget:
        return Budget(self.per_minute, 60)

    @property
    def reserve(self) -> Budget:
        return Budget(max(1, self.per_minute // RESERVE_SHARE), 60)


@lru_cache(maxsize=4096)
def subjects(address: str) -> tuple[ScopedSubject, ScopedSubject, ScopedSubject]:
    """The address's subjects, narrowest first: its address (IPv6: /64), network (/24, /48)
    and block (/16, /32). An IPv4-mapped IPv6 address is its IPv4 address."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return (
            ("address", "create:ip:unknown", "unknown"),
            ("network", "create:net:unknown", "unknown"),
            ("network", "create:blk:unknown", "unknown"),
        )
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefixes = (32, 24, 16) if ip.version == 4 else (64, 48, 32)
    networks = [ipaddress.ip_network((ip, bits), strict=False).compressed for bits in prefixes]
    if ip.version == 4:
        networks[0] = str(ip)
    return (
        ("address", f"create:ip:{networks[0]}", networks[0]),
        ("network", f"create:net:{networks[1]}", networks[1]),
        ("network", f"create:blk:{networks[2]}", networks[2]),
    )


def spend_creation(limiter: Limiter, address: str, per_minute: int, rng: random.Random) -> None:
    """Spend one creation from `address` (see the module's docstring), or raise
    CreationLimited saying which budget refused it; a refused creation uses no budget."""
    if not limiter.enabled:
        return
    ceilings = Ceilings(per_minute)
    levels = subjects(address)
    budgets = (ADDRESS, NETWORK, ceilings.block)
    # A subject this instance knows to be over its budget is refused without a write.
    waits = [(limiter.blocked_ms(key), scope, shown) for scope, key, shown in levels]
    wait, scope, shown = max(waits)
    if wait:
        raise _limited(scope, wait, shown)
    counted: list[Counted] = []
    try:
        for (scope, key, shown), budget in zip(levels, budgets, strict=True):
            key, share = spread(key, budget, rng)
            try:
                done = limiter.spend(key, share)
            except errors.TooManyRequests as refused:
                raise _limited(scope, refused.retry_after * 1000, shown) from refused
            if done is not None:
                counted.append(done)
        block = counted[-1] if len(counted) == len(levels) else None
        quiet = block is not None and block.estimate * spread_shards(ceilings.block) <= QUIET
        _spend_ceiling(limiter, ceilings, quiet, rng)
    except CreationLimited:
        for done in counted:
            limiter.refund(done)
        raise


def _spend_ceiling(limiter: Limiter, ceilings: Ceilings, quiet: bool, rng: random.Random) -> None:
    try:
        limiter.spend(*spread("create:*", ceilings.everyone, rng))
    except errors.TooManyRequests as full:
        if not quiet:
            raise _limited("global", full.retry_after * 1000) from full
        try:
            limiter.spend(*spread("create:quiet", ceilings.reserve, rng))
        except errors.TooManyRequests as reserve_full:
            wait = min(full.retry_after, reserve_full.retry_after)
            raise _limited("global", wait * 1000) from reserve_full


def _limited(scope: str, wait_ms: int, network: str = "") -> CreationLimited:
    retry = max(1, -(-wait_ms // 1000))
    return CreationLimited(scope, retry, network if scope == "network" else "")


def describe(per_minute: int) -> Sequence[tuple[str, Budget]]:
    """The budgets as README.md's table lists them."""
    ceilings = Ceilings(per_minute)
    return (
        ("one address (IPv6 /64)", ADDRESS),
        ("one network: /24 (IPv6 /48)", NETWORK),
        ("one network: /16 (IPv6 /32)", ceilings.block),
        ("everyone", ceilings.everyone),
        ("everyone, from a quiet /16 (IPv6 /32)", ceilings.reserve),
    )
