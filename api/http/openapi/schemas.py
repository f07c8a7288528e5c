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
        "required": ["kind", "winner", "at"],
        "properties": {
            "kind": {"enum": ["win", "draw", "forfeit"]},
            "winner": NULLABLE_STR,
            "at": {"type": "integer"},
        },
    },
    "Duel": {
        "type": "object",
        "required": [
            "id",
            "players",
            "word_length",
            "rows",
            "turns_used",
            "starts_at",
            "to_play",
            "deadline",
            "your_turn",
            "result",
        ],
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
    "Board": {
        "type": "array",
        "description": "A board's rows, compact: `[tiles, marks]` for a guess (marks: G "
        "correct, Y present, - absent), null for a skipped turn (R11). Turns alternate (R10): "
        "row i was played by the duel's players[i % 2].",
        "items": {
            "oneOf": [
                {
                    "type": "array",
                    "prefixItems": [
                        {"type": "array", "items": {"type": "string"}},
                        {"type": "string"},
                    ],
                    "minItems": 2,
                    "maxItems": 2,
                },
                {"type": "null"},
            ]
        },
    },
    "LiveDuel": {
        "type": "object",
        "required": [
            "id",
            "players",
            "rows",
            "word_length",
            "result",
            "board",
            "to_play",
            "deadline",
        ],
        "description": "A duel of the current round at a glance (R9). Open it in full with "
        "/duels/{duel_id}, or follow it through the state with `?watch=`.",
        "properties": {
            "id": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "rows": {"type": "integer", "description": "Rows played (the board's length)."},
            "word_length": {"type": "integer"},
            "result": ref("Result"),
            "board": ref("Board"),
            "to_play": {**NULLABLE_STR, "description": "Whose turn; null once over."},
            "deadline": {**NULLABLE_INT, "description": "When that turn times out (ms)."},
            "secret": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Present only once the duel has ended (D4).",
            },
        },
    },
    "StatePlayer": {
        "type": "object",
        "required": [
            "id",
            "nickname",
            "bot",
            "lives",
            "status",
            "place",
            "rating_change",
            "rating",
            "out_round",
            "provisional",
        ],
        "properties": {
            "id": {"type": "string"},
            "nickname": {"type": "string"},
            "bot": {"type": "boolean"},
            "lives": {"type": "integer"},
            "status": {"enum": ["playing", "out", "left", "winner"]},
            "place": {**NULLABLE_INT, "description": "Fixed place (D1), once fixed."},
            "rating_change": {**NULLABLE_INT, "description": "Fixed rating change (R16)."},
            "rating": {
                "type": "integer",
                "description": "Rating at the start, from which every change is computed "
                "(D5): results read rating → rating + rating_change.",
            },
            "out_round": {**NULLABLE_INT, "description": "The round in which lives reached 0."},
            "provisional": {
                "description": "R9: out in the current round, place not fixed yet: the place "
                "and rating change if the round ended now. They can only get better (others "
                "still playing this round may join the place, D1; docs/decisions.md).",
                "oneOf": [
                    {
                        "type": "object",
                        "properties": {
                            "place": {"type": "integer"},
                            "rating_change": {"type": "integer"},
                        },
                    },
                    {"type": "null"},
                ],
            },
        },
    },
    "HistoryRound": {
        "type": "object",
        "required": ["number", "intro_at", "starts_at", "ended_at", "bye", "out", "duels"],
        "properties": {
            "number": {"type": "integer"},
            "intro_at": {"type": "integer"},
            "starts_at": {"type": "integer"},
            "ended_at": {"type": "integer"},
            "bye": NULLABLE_STR,
            "out": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Players whose lives reached 0 in this round.",
            },
            "duels": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "players", "secret", "board", "result"],
                    "properties": {
                        "id": {"type": "string"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "secret": {"type": "array", "items": {"type": "string"}},
                        "board": ref("Board"),
                        "result": ref("Result"),
                    },
                },
            },
        },
    },
    "History": {
        "type": "object",
        "description": "Every round that has ended; it changes only when a round ends.",
        "properties": {
            "id": {"type": "string"},
            "rounds": {"type": "array", "items": ref("HistoryRound")},
        },
    },
    "State": {
        "type": "object",
        "required": [
            "id",
            "language",
            "phase",
            "phase_deadline",
            "round",
            "intro_at",
            "starts_at",
            "server_time",
            "finished_at",
            "timers",
            "players",
            "pairings",
            "bye",
            "you",
            "duel",
            "duels",
            "history_rounds",
            "where",
        ],
        "description": "Everything one screen needs. Times are ms since the epoch.",
        "properties": {
            "id": {"type": "string"},
            "language": LANGUAGE,
            "phase": {"enum": ["intro", "duels", "finished"]},
            "phase_deadline": NULLABLE_INT,
            "round": {"type": "integer"},
            "intro_at": {"type": "integer", "description": "When this round's intro began."},
            "starts_at": {"type": "integer", "description": "When its duels start."},
            "server_time": {"type": "integer"},
            "finished_at": NULLABLE_INT,
            "timers": {"type": "object"},
            "players": {"type": "array", "items": ref("StatePlayer")},
            "pairings": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "string"}},
                "description": "The round's duels as pairs of player ids.",
            },
            "bye": NULLABLE_STR,
            "you": NULLABLE_STR,
            "duel": {"oneOf": [ref("Duel"), {"type": "null"}]},
            "duels": {
                "type": "array",
                "items": ref("LiveDuel"),
                "description": "Every duel of the current round at a glance.",
            },
            "history_rounds": {
                "type": "integer",
                "description": "Rounds ended so far: fetch /history again when it grows.",
            },
            "where": ref("Where"),
            "ended_duel": {
                **ref("Duel"),
                "description": "Only in the answer to a guess that ended its duel: that "
                "duel's final board with the secret, even when the guess also ended the round "
                "and the state already shows the next one.",
            },
        },
    },
}
