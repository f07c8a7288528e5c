"""Every key of the one table, spelled once: the items' partition keys, the indexes, the names of
their partitions and their sort keys. Pure: the DynamoDB adapter, the in-memory fake (which
keeps its indexes by the same keys) and the meter share them.

Items (partition key `pk`):

| item | key |
| --- | --- |
| player | `P#<id>` |
| lobby | `L#<id>` |
| tournament | `T#<id>` |
| group | `G#<id>` |
| history line | `H#<player>#<tournament>` |
| statistics | `C#<player>` |
| rate-limit counter | `R#<subject>` |
| storage's heartbeat, its copies | `S#clock`, `S#clock#<n>` |
| the health check's write | `S#health` |
| leaderboard snapshot | `B#<board>#<copy>` |
| a part's boards, the refresh claim | `B#part#<n>`, `B#refresh` |

Index partitions (how many shards each has is the deployment's `Layout`, api/storage/layout.py):
`due` holds live tournaments in `D#<shard>` and open lobbies in `DL#<shard>`; `fill` open lobbies
in `O#<language>#<band>` (shard 0) and `O#<language>#<band>#<shard>`, and idle house bots (D18)
in `I#<band>`, sorted by rating; `history` a player's lines under their id, and (D19) under
`F#review` the statistics of every player whose fair-play status is not ok, by when it was set;
`active` players' statistics in `A#<part>` and `A#<part>#<n>` (ACTIVE_SPREAD keys a part), fair
play's held players aside.
"""

from __future__ import annotations

import math
import zlib

from api.storage.records import (
    GroupRecord,
    HistoryRecord,
    LobbyRecord,
    PlayerRecord,
    Record,
    StatsRecord,
    TournamentRecord,
)
from core.leaderboard import PARTS, part_of

# ---------------------------------------------------------------------------- items

PLAYER = "P#"
LOBBY = "L#"
TOURNAMENT = "T#"
GROUP = "G#"
HISTORY = "H#"
STATS = "C#"
COUNTER = "R#"
BOARD = "B#"
PART = "B#part#"
REFRESH = "B#refresh"
CLOCK = "S#clock"
HEALTH = "S#health"  # what /v1/health writes to know the store can be written
PING = "X#ping"  # a key that never exists: what a health check reads


def clock_copy_key(copy: int) -> str:
    """One of the heartbeat's copies (Layout.clock_copies), read instead of `S#clock`."""
    return f"{CLOCK}#{copy}"


PREFIX: dict[type, str] = {
    PlayerRecord: PLAYER,
    LobbyRecord: LOBBY,
    TournamentRecord: TOURNAMENT,
    GroupRecord: GROUP,
    HistoryRecord: HISTORY,
    StatsRecord: STATS,
}


def key_of(kind: type, record_id: str) -> str:
    """The item key of the record of type `kind` whose `id` is `record_id`."""
    return PREFIX[kind] + record_id


def record_key(record: Record) -> str:
    return PREFIX[type(record)] + record.id


def without(prefix: str, key: str) -> str:
    """The id in an item key: `without(PLAYER, "P#p1")` is "p1"."""
    return key[len(prefix) :]


def has_contacts(key: str) -> bool:
    """Tournaments and lobbies: the items that keep contact stamps and sit in the sweep's index."""
    return key.startswith((TOURNAMENT, LOBBY))


def counter_key(subject: str) -> str:
    return COUNTER + subject


def board_key(name: str, copy: int) -> str:
    return f"{BOARD}{name}#{copy}"


def board_name(key: str) -> str:
    return without(BOARD, key).rsplit("#", 1)[0]


def part_key(part: int) -> str:
    return f"{PART}{part}"


# ---------------------------------------------------------------------------- indexes

DUE_INDEX = "due"
OPEN_INDEX = "fill"
HISTORY_INDEX = "history"
ACTIVE_INDEX = "active"
ACTIVE_SHARDS = PARTS  # the leaderboards read the active players part by part
# Each part spreads over this many keys: at ten million players a part's entries take about
# 860 writes a second as places are fixed, most of one partition's 1,000 (bench scale). Items
# written before the spread stay readable under `A#<part>` (its first key) and move on their
# next write; the count must not be lowered while entries sit in the keys it would drop.
ACTIVE_SPREAD = 4

DUE = "D#"
LOBBY_DUE = "DL#"
FILL = "O#"
IDLE = "I#"  # idle house bots, in the `fill` index too: what else can fill a lobby
ACTIVE = "A#"
# D19: the `history` index's partition of the players operators review (flagged, confirmed or
# cleared): no player id has this shape (ids are `p_<hex>`), so no player's history meets it.
REVIEW = "F#review"
RATING_BAND = 200


def due_key(shard: int) -> str:
    """A partition of `due` that holds live tournaments."""
    return f"{DUE}{shard}"


def lobby_due_key(shard: int) -> str:
    """A partition of `due` that holds open lobbies."""
    return f"{LOBBY_DUE}{shard}"


def fill_key(language: str, band: int, shard: int = 0) -> str:
    """A partition of `fill`: the open lobbies of one language and rating band (and shard)."""
    base = f"{FILL}{language}#{band}"
    return base if shard == 0 else f"{base}#{shard}"


def idle_key(band: int) -> str:
    """A partition of `fill` that holds the idle house bots of one rating band (D18)."""
    return f"{IDLE}{band}"


def idle_sort_key(rating: float) -> str:
    """The fill index's sort key of an idle house bot: its rating, five digits (string order
    is rating order)."""
    return f"{min(max(round(rating), 0), 99_999):05d}"


IdleRange = tuple[int, int, int]  # (band, lowest rating, highest rating), both included


def idle_ranges(rating: float, window: int) -> tuple[list[IdleRange], list[IdleRange]]:
    """Where idle house bots within `window` of `rating` are listed: the ranges from `rating`
    upwards, then from just below it downwards, each cut at the rating bands' edges and
    nearest first."""
    centre = round(rating)
    up: list[IdleRange] = []
    for band in range(rating_band(centre), rating_band(centre + window) + 1):
        low, high = band * RATING_BAND, (band + 1) * RATING_BAND - 1
        up.append((band, max(centre, low), min(centre + window, high)))
    down: list[IdleRange] = []
    for band in range(rating_band(centre - 1), rating_band(centre - window) - 1, -1):
        low, high = band * RATING_BAND, (band + 1) * RATING_BAND - 1
        down.append((band, max(centre - window, low), min(centre - 1, high)))
    return up, down


def active_key(part: int, spread: int = 0) -> str:
    """A partition of the `active` index: one of a part's ACTIVE_SPREAD keys (`A#<part>`,
    then `A#<part>#<n>`)."""
    return f"{ACTIVE}{part}" if spread == 0 else f"{ACTIVE}{part}#{spread}"


def active_keys(part: int) -> list[str]:
    """Every key of a part: what the leaderboards' refresh reads for it."""
    return [active_key(part, n) for n in range(ACTIVE_SPREAD)]


def active_shard(player_id: str) -> str:
    """The player's key: their part (core.leaderboard.part_of: the crc32 modulo PARTS), and
    within it the next bits of the same hash."""
    return active_key(part_of(player_id), zlib.crc32(player_id.encode()) // PARTS % ACTIVE_SPREAD)


def review_sort_key(status_at: int | None, player_id: str) -> str:
    """The sort key of a reviewed player's statistics under REVIEW: when the status was set."""
    return f"{status_at or 0:013d}#{player_id}"


def history_sort_key(finished_at: int, tournament_id: str) -> str:
    """Newest last in string order: the time in 13 digits (ms, good until 2286), then the id."""
    return f"{finished_at:013d}#{tournament_id}"


def open_sort_key(free_seats: int, created_at: int) -> str:
    """The fill index's sort key: fewest free seats first, then the oldest."""
    return f"{free_seats}#{created_at:015d}"


def rating_band(rating: float) -> int:
    return math.floor(rating / RATING_BAND)


def rating_bands(rating: float, window: int) -> range:
    """The bands that hold every lobby rated within `window` of `rating`."""
    return range(rating_band(rating - window), rating_band(rating + window) + 1)
