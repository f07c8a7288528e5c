"""The one DynamoDB table: its definition, key layout, sparse-index partitions and its life.

Items (partition key `pk`): players `P#<id>`, lobbies `L#<id>`, tournaments `T#<id>`, groups
`G#<id>`, rate-limit counters `R#<key>` (a count per window, api/service/limits.py), and
storage's heartbeat `S#clock` (api/service/outages.py). Sparse indexes, so only items that
need them are indexed:

- `due`: what the sweep must look at, sort key the next deadline `dd`: live tournaments in
  partitions `D#<shard>`, open lobbies (D15 merges, D16 idle seats) in `DL#<shard>` (sharded: one
  constant key would be a hot partition). The sweep queries each shard for `dd <= now`.
- `fill`: lobbies open for matchmaking, partition `O#<language>#<floor(rating / 200)>` (and
  `…#<shard>` when a band is sharded), sort key `of` = `<free seats>#<created_at>`, so a query
  reads the fullest first, then the oldest (D6). Matchmaking reads at most a few of them from
  each band around a rating (`Limit`), however many are open.

How many shards each has is the deployment's `Layout` (api/storage/layout.py).

Started and merged lobbies carry the TTL attribute `x` (as rate-limit counters do): DynamoDB
deletes them a day after the lobby opened, cleanup only.

Players' records (api/storage/dynamodb/history_items.py): a history line per player and tournament
`H#<player>#<tournament>`, statistics per player `C#<player>`, leaderboard snapshots
`B#<board>#<copy>` and their refresh claim `B#refresh`. Two more sparse indexes:

- `history`: every history line, partition the player's id `hp`, sort key `hf` (the time the
  place was fixed, 13 digits, then the tournament's id): one page of a history is one Query.
- `active`: players' statistics (bots' aside), partition `A#<0..15>` (sharded by player:
  ~1,100 places fixed a second at a million players move ~70 entries a second per shard),
  sort key the last finish `lp`: the leaderboards' snapshot reads who played in the last
  30 days, and never anyone older.
"""

from __future__ import annotations

import math
import time
from typing import Any

from botocore.exceptions import ClientError  # type: ignore[import-untyped]
from pynamodb.connection import TableConnection
from pynamodb.exceptions import TableDoesNotExist

from api.storage.dynamodb.errors import error_code
from api.storage.repository import Unavailable
from core.leaderboard import PARTS, part_of

DUE_INDEX = "due"
OPEN_INDEX = "fill"
HISTORY_INDEX = "history"
ACTIVE_INDEX = "active"
ACTIVE_SHARDS = PARTS  # the leaderboards read the active players part by part
# What the leaderboards' snapshot reads of a player's statistics (dynamodb/history_items.py).
ACTIVE_ATTRIBUTES = ["nn", "rt", "ls"]
RATING_BAND = 200
TTL_ATTRIBUTE = "x"
LOBBY_KEEP_S = 86_400  # a started or merged lobby's item expires a day after the lobby opened
MAX_TRANSACTION_ITEMS = 100
MAX_BATCH_GET = 100


def _key(name: str, kind: str) -> dict[str, str]:
    return {"AttributeName": name, "KeyType": kind}


def table_definition(table_name: str) -> dict[str, Any]:
    """The one definition of the table, as boto3's CreateTable arguments."""
    return {
        "TableName": table_name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "dk", "AttributeType": "S"},
            {"AttributeName": "dd", "AttributeType": "N"},
            {"AttributeName": "ok", "AttributeType": "S"},
            {"AttributeName": "of", "AttributeType": "S"},
            {"AttributeName": "hp", "AttributeType": "S"},
            {"AttributeName": "hf", "AttributeType": "S"},
            {"AttributeName": "ak", "AttributeType": "S"},
            {"AttributeName": "lp", "AttributeType": "N"},
        ],
        "KeySchema": [_key("pk", "HASH")],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": DUE_INDEX,
                "KeySchema": [_key("dk", "HASH"), _key("dd", "RANGE")],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            },
            {
                "IndexName": OPEN_INDEX,
                "KeySchema": [_key("ok", "HASH"), _key("of", "RANGE")],
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                "IndexName": HISTORY_INDEX,
                "KeySchema": [_key("hp", "HASH"), _key("hf", "RANGE")],
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                "IndexName": ACTIVE_INDEX,
                "KeySchema": [_key("ak", "HASH"), _key("lp", "RANGE")],
                "Projection": {
                    "ProjectionType": "INCLUDE",
                    "NonKeyAttributes": ACTIVE_ATTRIBUTES,
                },
            },
        ],
    }


def ttl_specification() -> dict[str, Any]:
    """UpdateTimeToLive's specification: counters and closed lobbies expire by `x` (epoch
    seconds), cleanup only."""
    return {"AttributeName": TTL_ATTRIBUTE, "Enabled": True}


def active_shard(player_id: str) -> str:
    return active_key(part_of(player_id))


def active_key(part: int) -> str:
    """The `active` index's partition of one part of the players."""
    return f"A#{part}"


def history_sort_key(finished_at: int, tournament_id: str) -> str:
    """Newest last in string order: the time in 13 digits (ms, good until 2286), then the id."""
    return f"{finished_at:013d}#{tournament_id}"


def rating_band(rating: float) -> int:
    return math.floor(rating / RATING_BAND)


def rating_bands(rating: float, window: int) -> range:
    """The bands that hold every lobby rated within `window` of `rating`."""
    return range(rating_band(rating - window), rating_band(rating + window) + 1)


def open_sort_key(free_seats: int, created_at: int) -> str:
    """The fill index's sort key: fewest free seats first, then the oldest."""
    return f"{free_seats}#{created_at:015d}"


def due_page_limit(limit: int, shards: int) -> int:
    """How many due items the sweep reads from each shard to find about the `limit` earliest:
    a shard's fair share twice over (at least 10), so that a sweep over many shards reads a
    bounded number however many are due. A shard with more due than that gives the rest to
    the next sweep."""
    return min(limit, max(10, -(-2 * limit // max(shards, 1))))


def lobby_expiry(created_at: int) -> int:
    """The TTL (epoch seconds) of a started or merged lobby's item."""
    return -(-created_at // 1000) + LOBBY_KEEP_S


# ---------------------------------------------------------------------------- the table's life


def create_if_missing(conn: TableConnection) -> bool:
    """CreateTable unless it exists; True if this call created it."""
    try:
        conn.describe_table()
        return False
    except TableDoesNotExist:
        pass
    try:
        conn.connection.dispatch("CreateTable", table_definition(conn.table_name))
    except ClientError as exc:
        if error_code(exc) == "ResourceInUseException":  # someone else just created it
            return False
        raise
    return True


def wait_active(conn: TableConnection, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        description = conn.describe_table()
        indexes = description.get("GlobalSecondaryIndexes", [])
        statuses = [description["TableStatus"], *(i.get("IndexStatus", "ACTIVE") for i in indexes)]
        if all(s == "ACTIVE" for s in statuses):
            return
        if time.monotonic() > deadline:
            raise Unavailable(f"table {conn.table_name} is still {statuses}", retry_after=10)
        time.sleep(0.5)


def ensure_ttl(conn: TableConnection) -> None:
    client = conn.connection.client
    described = client.describe_time_to_live(TableName=conn.table_name)
    if described["TimeToLiveDescription"]["TimeToLiveStatus"] in ("ENABLED", "ENABLING"):
        return
    client.update_time_to_live(
        TableName=conn.table_name, TimeToLiveSpecification=ttl_specification()
    )
