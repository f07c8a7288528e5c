"""The one DynamoDB table as data: its definition (CreateTable's arguments, which
infra/dynamodb.yaml repeats and tests/deploy compares) and its time to live.

Items (partition key `pk`, api/storage/keys.py): players `P#<id>`, lobbies `L#<id>`,
tournaments `T#<id>`, groups `G#<id>`, rate-limit counters `R#<key>` (a count per window,
api/service/limits.py), storage's heartbeat `S#clock` (api/service/outages.py), and players'
history and statistics (api/storage/dynamodb/history_items.py): a history line per player and
tournament `H#<player>#<tournament>`, statistics per player `C#<player>`, leaderboard snapshots
`B#<board>#<copy>` and their refresh claim `B#refresh`. Sparse indexes, so only items that need
them are indexed:

- `due`: what the sweep must look at, sort key the next deadline `dd`: live tournaments in
  partitions `D#<shard>`, open lobbies (D15 merges, D16 idle seats) in `DL#<shard>` (sharded: one
  constant key would be a hot partition). The sweep queries each shard for `dd <= now`.
- `fill`: lobbies open for matchmaking, partition `O#<language>#<floor(rating / 200)>` (and
  `…#<shard>` when a band is sharded), sort key `of` = `<free seats>#<created_at>`, so a query
  reads the fullest first, then the oldest (D6). Matchmaking reads at most a few of them from
  each band around a rating (`Limit`), however many are open.
- `history`: every history line, partition the player's id `hp`, sort key `hf` (the time the
  place was fixed, 13 digits, then the tournament's id): one page of a history is one Query.
- `active`: players' statistics (bots' aside), partition `A#<0..15>` (sharded by player:
  ~1,100 places fixed a second at a million players move ~70 entries a second per shard),
  sort key the last finish `lp`: the leaderboards' snapshot reads who played in the last
  30 days, and never anyone older.

How many shards each has is the deployment's `Layout` (api/storage/layout.py).

Started and merged lobbies carry the TTL attribute `x` (as rate-limit counters do): DynamoDB
deletes them a day after the lobby opened, cleanup only.
"""

from __future__ import annotations

from typing import Any

from api.storage.keys import ACTIVE_INDEX, DUE_INDEX, HISTORY_INDEX, OPEN_INDEX

# What the leaderboards' snapshot reads of a player's statistics (dynamodb/history_items.py).
ACTIVE_ATTRIBUTES = ["nn", "rt", "ls"]
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


def lobby_expiry(created_at: int) -> int:
    """The TTL (epoch seconds) of a started or merged lobby's item."""
    return -(-created_at // 1000) + LOBBY_KEEP_S
