"""The OpenAPI schemas of a tournament's state as the players see it: duels, boards, players, the
story of past rounds (R9, D13)."""

from __future__ import annotations

from api.http.openapi.parts import JSON, LANGUAGE, NULLABLE_INT, NULLABLE_STR, ref

STATE_SCHEMAS: JSON = {
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
            "left_reason",
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
            "left_reason": {
                "oneOf": [{"enum": ["away", "left"]}, {"type": "null"}],
                "description": "Why a player whose status is left did: away (no contact for "
                "the reconnect window, D9: removed at the last contact + the window) or left "
                "(they left, R20). Null for everyone else.",
            },
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
