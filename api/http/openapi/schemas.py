"""The OpenAPI document's component schemas."""

from __future__ import annotations

from api.http.openapi.parts import (
    JSON,
    LANGUAGE,
    LANGUAGE_CODE,
    NICKNAME,
    NULLABLE_INT,
    NULLABLE_STR,
    ref,
)

SCHEMAS: JSON = {
    "LanguageCode": LANGUAGE_CODE,
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": {"type": "string", "examples": ["not_your_turn"]},
                    "message": {"type": "string"},
                    "details": {"type": "object"},
                },
            }
        },
    },
    "Where": {
        "type": "object",
        "description": "Where the player is now; a client routes from it on every screen "
        "(docs/client.md). Also the `Where` header of every authenticated GET.",
        "required": ["lobby_id", "tournament_id", "group_id", "last_tournament_id"],
        "properties": {
            "lobby_id": {**NULLABLE_STR, "description": "A lobby you sit in, waiting to fill."},
            "tournament_id": {
                **NULLABLE_STR,
                "description": "A live tournament you are still playing in: show it. Null "
                "once you are out or have left (D14: free to go, queue or be seated by "
                "your group's leader).",
            },
            "group_id": NULLABLE_STR,
            "last_tournament_id": {
                **NULLABLE_STR,
                "description": "Your latest tournament, live or finished: to watch (R9) or "
                "read its results and history.",
            },
        },
    },
    "Profile": {
        "type": "object",
        "required": ["id", "nickname", "rating", "tournaments_played", "where"],
        "properties": {
            "id": {"type": "string", "minLength": 1},
            "nickname": NICKNAME,
            "rating": {"type": "integer"},
            "tournaments_played": {"type": "integer", "minimum": 0},
            "lobby_id": {**NULLABLE_STR, "description": "Same as where.lobby_id."},
            "tournament_id": {**NULLABLE_STR, "description": "Same as where.tournament_id."},
            "last_tournament_id": {
                **NULLABLE_STR,
                "description": "Same as where.last_tournament_id.",
            },
            "group_id": {**NULLABLE_STR, "description": "Same as where.group_id."},
            "bot": {"type": "boolean"},
            "where": ref("Where"),
        },
    },
    "NewPlayer": {
        "allOf": [
            ref("Profile"),
            {
                "type": "object",
                "required": ["token"],
                "properties": {
                    "token": {
                        "type": "string",
                        "description": "Bearer token; shown once, keep it secret.",
                    }
                },
            },
        ]
    },
    "Health": {
        "type": "object",
        "required": ["status", "time", "store", "table", "written_at", "poll_passes"],
        "properties": {
            "status": {"const": "ok"},
            "written_at": {
                "type": ["integer", "null"],
                "description": "When this server last wrote the store's health item, ms since "
                "the epoch (at most every 30 s). A store that cannot be read or written is a 503 "
                "whose `details.cause` says why: `unreachable`, `throttled`, `disk_full`, "
                "`table_missing` or `store_failed`.",
            },
            "time": {"type": "integer", "description": "Server time, ms since the epoch."},
            "store": {
                "enum": ["dynamodb", "dynamodb-local", "moto", "memory"],
                "description": "What answers for DynamoDB: AWS (or DYNAMODB_ENDPOINT), "
                "DynamoDB Local or moto (local stacks), or the tests' in-memory fake.",
            },
            "table": {**NULLABLE_STR, "description": "The DynamoDB table (none in memory)."},
            "poll_passes": {
                "enum": ["shared", "per_process"],
                "description": "Whether the poll passes in state ETags are signed with the "
                "deployment's WT_POLL_PASS_KEY (`shared`: any instance honours any instance's) "
                "or with a key this process drew (`per_process`: only the instance that issued "
                "a pass honours it, so polls cost what they would without passes).",
            },
        },
    },
    "Language": {
        "type": "object",
        "properties": {
            "code": LANGUAGE,
            "english_name": {"type": "string"},
            "native_name": {"type": "string"},
            "tiles": {"type": "array", "items": {"type": "string"}},
            "keyboard": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "string"}},
            },
            "spellings": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
                "description": "D12: typed text that stands for tiles besides the tiles "
                "themselves and accent folding (ligatures such as œ → o e, every apostrophe "
                "of Uzbek oʻ and gʻ, Russian ё → е), lower case.",
            },
        },
    },
    "Lobby": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "language": LANGUAGE,
            "created_at": {"type": "integer", "description": "ms since the epoch"},
            "rating": NULLABLE_INT,
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "player_id": {"type": "string"},
                        "nickname": NULLABLE_STR,
                        "bot": {
                            "type": "boolean",
                            "description": "A bot, not a person: a house bot (D18) or a "
                            "bot that plays through the API.",
                        },
                    },
                },
            },
            "open_seats": {"type": "integer"},
            "group_id": NULLABLE_STR,
            "tournament_id": {
                **NULLABLE_STR,
                "description": "Set once the lobby is full and its tournament started.",
            },
        },
    },
    "QueueStatus": {
        "type": "object",
        "properties": {
            "queued": {"type": "boolean"},
            "waited_ms": {"type": "integer"},
            "searching_in_window": {
                "type": "integer",
                "description": (
                    "People (bots aside) of your language within your rating window waiting "
                    "in other lobbies nearby that your lobby cannot merge with (D15); a lower "
                    "bound, from the few fullest lobbies of each rating band that a poll reads."
                ),
            },
            "bots_at": {
                **NULLABLE_INT,
                "description": (
                    "D18: when house bots (practice players) take the lobby's free seats and "
                    "its tournament starts, in ms since the epoch (server time): "
                    "WT_BOT_FILL_SECONDS after its last seat was taken, once a person sits in "
                    "it; later again when someone sits down. The tournament starts at exactly "
                    "that time, at the first request (this poll, say) or sweep that comes "
                    "after it. Null when house bots are off, or when you are not in an open "
                    "lobby."
                ),
            },
            "window": {
                "type": "object",
                "description": "Matchmaking only joins lobbies within ±200; it never widens.",
                "properties": {
                    "rating": {"type": "integer"},
                    "min": {"type": "integer"},
                    "max": {"type": "integer"},
                    "widens": {"type": "boolean", "const": False},
                },
            },
            "lobby": {
                "oneOf": [ref("Lobby"), {"type": "null"}],
                "description": (
                    "The lobby you sit in now: lobbies merge (D15), so it may change between "
                    "polls. Null once its tournament started (GET /v1/me names it) or after "
                    "you gave up the seat (D16: 60 s without a request)."
                ),
            },
        },
    },
    "Group": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "language": LANGUAGE,
            "leader": {"type": "string"},
            "invite_code": {"type": "string"},
            "lobby_id": NULLABLE_STR,
            "members": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "player_id": {"type": "string"},
                        "nickname": NULLABLE_STR,
                        "rating": NULLABLE_INT,
                        "lobby_id": NULLABLE_STR,
                        "tournament_id": NULLABLE_STR,
                    },
                },
            },
        },
    },
}
