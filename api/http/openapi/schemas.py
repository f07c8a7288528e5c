"""The OpenAPI document's component schemas."""

from __future__ import annotations

from api.http.openapi.parts import JSON, LANGUAGE, NICKNAME, NULLABLE_INT, NULLABLE_STR, ref

SCHEMAS: JSON = {
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
    "Profile": {
        "type": "object",
        "required": ["id", "nickname", "rating", "tournaments_played"],
        "properties": {
            "id": {"type": "string", "minLength": 1},
            "nickname": NICKNAME,
            "rating": {"type": "integer"},
            "tournaments_played": {"type": "integer", "minimum": 0},
            "lobby_id": NULLABLE_STR,
            "tournament_id": NULLABLE_STR,
            "last_tournament_id": NULLABLE_STR,
            "group_id": NULLABLE_STR,
            "bot": {"type": "boolean"},
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
        "required": ["status", "time", "store", "table"],
        "properties": {
            "status": {"const": "ok"},
            "time": {"type": "integer", "description": "Server time, ms since the epoch."},
            "store": {
                "enum": ["dynamodb", "dynamodb-local", "moto", "memory"],
                "description": "What answers for DynamoDB: AWS (or DYNAMODB_ENDPOINT), "
                "DynamoDB Local or moto (local stacks), or the tests' in-memory fake.",
            },
            "table": {**NULLABLE_STR, "description": "The DynamoDB table (none in memory)."},
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
                    "properties": {"player_id": {"type": "string"}, "nickname": NULLABLE_STR},
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
                    "Players within your rating window waiting in other lobbies nearby that "
                    "your lobby cannot merge with (D15); a lower bound, from the few fullest "
                    "lobbies of each rating band that a poll reads."
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
    "Row": {
        "type": "object",
        "required": ["by"],
        "properties": {
            "by": {"type": "string", "description": "The player who used this turn."},
            "skipped": {"type": "boolean", "description": "The turn timed out."},
            "tiles": {"type": "array", "items": {"type": "string"}},
            "marks": {"type": "string", "description": "G correct, Y present, - absent."},
        },
    },
    "Result": {
        "type": ["object", "null"],
        "properties": {
            "kind": {"enum": ["win", "draw", "forfeit"]},
            "winner": NULLABLE_STR,
            "at": {"type": "integer"},
        },
    },
    "Duel": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "word_length": {"type": "integer"},
            "rows": {"type": "array", "items": ref("Row")},
            "turns_used": {"type": "object", "additionalProperties": {"type": "integer"}},
            "starts_at": {"type": "integer"},
            "to_play": NULLABLE_STR,
            "deadline": {**NULLABLE_INT, "description": "When the current turn times out."},
            "your_turn": {"type": "boolean"},
            "result": ref("Result"),
            "secret": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Present only once the duel has ended.",
            },
        },
    },
    "State": {
        "type": "object",
        "description": "Everything one screen needs. Times are ms since the epoch.",
        "properties": {
            "id": {"type": "string"},
            "language": LANGUAGE,
            "phase": {"enum": ["intro", "duels", "finished"]},
            "phase_deadline": NULLABLE_INT,
            "round": {"type": "integer"},
            "server_time": {"type": "integer"},
            "finished_at": NULLABLE_INT,
            "timers": {"type": "object"},
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "nickname": {"type": "string"},
                        "bot": {"type": "boolean"},
                        "lives": {"type": "integer"},
                        "status": {"enum": ["playing", "out", "left", "winner"]},
                        "place": NULLABLE_INT,
                        "rating_change": NULLABLE_INT,
                    },
                },
            },
            "pairings": {"type": "array", "items": {"type": "array"}},
            "bye": NULLABLE_STR,
            "you": NULLABLE_STR,
            "duel": {"oneOf": [ref("Duel"), {"type": "null"}]},
            "duels": {"type": "array", "items": {"type": "object"}},
        },
    },
}
