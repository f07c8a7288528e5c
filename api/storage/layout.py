"""How the shared partitions of the indexes spread over keys: the shard counts.

One partition key takes at most 3,000 read and 1,000 write units per second, and an index
partition that cannot keep up throttles the table's writes. So every part of an index that many
items share is spread over several keys, as many as the load needs (`wordle-tournament bench
scale` measures it; docs/capacity.md has the figures):

- `due`, live tournaments: `D#<crc32(id) % due_shards>`; open lobbies: `DL#<crc32(id) %
  lobby_due_shards>`. The sweep reads every shard, in parallel.
- `fill`, open lobbies by language and 200-point rating band: shard 0 is `O#<language>#<band>`
  and shard s > 0 is `O#<language>#<band>#<s>`, the lobby's shard `crc32(lobby id) %
  fill_shards(language)`. Matchmaking reads the caller's own shard of each band first and the
  others only when it found nobody there to play with (`nearby` in api/service/lobbies.py).
- storage's heartbeat `S#clock` (api/service/outages.py) is read by every busy instance once per
  heartbeat interval; with `clock_copies` > 0 instances read one of that many copies
  `S#clock#<n>` at random instead, each kept fresh by its own readers from the heartbeat.

A count may be raised on a live deployment: every key of the smaller count is still read. It
must not be lowered while items sit in the shards it would drop (a due tournament there would
wait for a poll instead of the sweep; a lobby would wait for its own players' polls).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from api.storage import keys
from core.lobby import Lobby


def _shard(item_id: str, count: int) -> int:
    return zlib.crc32(item_id.encode()) % count


@dataclass(frozen=True, slots=True)
class Layout:
    due_shards: int = 8
    lobby_due_shards: int = 4
    fill_shards: int = 1  # per language and rating band, for every language not listed below
    fill_shards_by_language: tuple[tuple[str, int], ...] = ()
    clock_copies: int = 0  # copies of the heartbeat that instances read (0: the item itself)

    def __post_init__(self) -> None:
        counts = [self.due_shards, self.lobby_due_shards, self.fill_shards]
        counts += [n for _, n in self.fill_shards_by_language]
        if any(n < 1 or n > 1024 for n in counts):
            raise ValueError("shard counts are between 1 and 1024")
        if not 0 <= self.clock_copies <= 64:
            raise ValueError("the heartbeat's copies are from 0 to 64")

    # ------------------------------------------------------------------ due

    def due_key(self, tournament_id: str) -> str:
        return keys.due_key(_shard(tournament_id, self.due_shards))

    def lobby_due_key(self, lobby_id: str) -> str:
        return keys.lobby_due_key(_shard(lobby_id, self.lobby_due_shards))

    def due_keys(self) -> list[str]:
        return [keys.due_key(s) for s in range(self.due_shards)]

    def lobby_due_keys(self) -> list[str]:
        return [keys.lobby_due_key(s) for s in range(self.lobby_due_shards)]

    # ------------------------------------------------------------------ fill

    def fill_count(self, language: str) -> int:
        return dict(self.fill_shards_by_language).get(language, self.fill_shards)

    def fill_shard(self, language: str, item_id: str) -> int:
        """The shard of `item_id` (a lobby: where it is listed; a player: where it looks
        first) among the language's fill shards."""
        return _shard(item_id, self.fill_count(language))

    def lobby_fill_key(self, lobby: Lobby) -> str:
        """The `fill` partition of an open lobby: its language, rating band and shard."""
        shard = self.fill_shard(lobby.language, lobby.id)
        return keys.fill_key(lobby.language, keys.rating_band(lobby.rating), shard)

    def fill_keys(self, language: str, band: int, shards: Iterable[int] | None = None) -> list[str]:
        """The keys of `shards` (None: every shard) of one band."""
        chosen = range(self.fill_count(language)) if shards is None else shards
        return [keys.fill_key(language, band, s) for s in chosen]

    # ------------------------------------------------------------------ configuration

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Layout:
        """`WT_DUE_SHARDS`, `WT_LOBBY_DUE_SHARDS`, `WT_FILL_SHARDS` (`4`, or `en:8,es:2,1`: per
        language, the bare number for the others); unset: the defaults."""
        default = cls()
        fill, by_language = parse_fill_shards(env.get("WT_FILL_SHARDS") or str(default.fill_shards))
        return cls(
            due_shards=_count(env, "WT_DUE_SHARDS", default.due_shards),
            lobby_due_shards=_count(env, "WT_LOBBY_DUE_SHARDS", default.lobby_due_shards),
            fill_shards=fill,
            fill_shards_by_language=by_language,
            clock_copies=_copies(env.get("WT_CLOCK_COPIES")),
        )

    def describe(self) -> str:
        fill = ",".join(f"{lang}:{n}" for lang, n in self.fill_shards_by_language)
        fill = f"{fill},{self.fill_shards}" if fill else str(self.fill_shards)
        return (
            f"WT_DUE_SHARDS={self.due_shards} WT_LOBBY_DUE_SHARDS={self.lobby_due_shards} "
            f"WT_FILL_SHARDS={fill}"
            + (f" WT_CLOCK_COPIES={self.clock_copies}" if self.clock_copies else "")
        )


def _copies(raw: str | None) -> int:
    if not raw:
        return 0
    if not raw.isdigit() or int(raw) > 64:
        raise ValueError(f"WT_CLOCK_COPIES must be a count from 0 to 64, not {raw!r}")
    return int(raw)


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if not raw:
        return default
    if not raw.isdigit() or not 1 <= int(raw) <= 1024:
        raise ValueError(f"{name} must be a shard count from 1 to 1024, not {raw!r}")
    return int(raw)


def parse_fill_shards(text: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """`8` → (8, ()); `en:16,es:4,2` → (2, (("en", 16), ("es", 4)))."""
    default = 1
    by_language: list[tuple[str, int]] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        language, colon, count = part.rpartition(":")
        if not count.isdigit() or not 1 <= int(count) <= 1024 or (colon and not language):
            raise ValueError(f"WT_FILL_SHARDS: {part!r} is not `<count>` or `<language>:<count>`")
        if colon:
            by_language.append((language, int(count)))
        else:
            default = int(count)
    return default, tuple(sorted(by_language))


def power_of_two(n: float) -> int:
    """The smallest power of two ≥ n (at least 1)."""
    return 1 << max(0, math.ceil(math.log2(max(n, 1.0))))
