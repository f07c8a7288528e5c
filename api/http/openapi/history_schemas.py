"""The OpenAPI schemas of players' history and statistics, public results and leaderboards."""

from __future__ import annotations

from api.http.openapi.parts import JSON, LANGUAGE, NULLABLE_INT, NULLABLE_STR, ref

_MS = {"type": "integer", "description": "ms since the epoch"}


def _object(properties: JSON, description: str = "", optional: tuple[str, ...] = ()) -> JSON:
    """An object whose properties are all required but `optional`."""
    schema: JSON = {
        "type": "object",
        "required": [name for name in properties if name not in optional],
        "properties": properties,
    }
    if description:
        schema["description"] = description
    return schema


_DUELS = _object(
    {
        "won": {"type": "integer", "minimum": 0},
        "drawn": {"type": "integer", "minimum": 0},
        "lost": {"type": "integer", "minimum": 0},
    },
    "Duels won (also when the opponent left, D8), drawn (R14) and lost (also by leaving).",
)

HISTORY_SCHEMAS: JSON = {
    "DuelCounts": _DUELS,
    "HistoryEntry": _object(
        {
            "tournament_id": {"type": "string"},
            "language": LANGUAGE,
            "started_at": {**_MS, "description": "When the tournament started (D7)."},
            "finished_at": {
                **_MS,
                "description": "When your place was fixed: the end of the round that put you "
                "out (R8), or of the last round for the winner. The tournament itself may go "
                "on; its summary is public once it has finished.",
            },
            "place": {"type": "integer", "minimum": 1, "maximum": 8},
            "rating_before": {"type": "integer"},
            "rating_after": {"type": "integer"},
            "rating_change": {"type": "integer"},
            "rounds_played": {"type": "integer", "minimum": 1},
            "duels": ref("DuelCounts"),
            "left": {"type": "boolean", "description": "You left or dropped for good (R20)."},
        },
        "One finished tournament of yours.",
    ),
    "HistoryPage": _object(
        {
            "entries": {
                "type": "array",
                "items": ref("HistoryEntry"),
                "description": "Newest first.",
            },
            "next_cursor": {
                **NULLABLE_STR,
                "description": "Pass as `cursor` for the next page; null on the last page.",
            },
        }
    ),
    "RatingPoint": _object({"at": _MS, "rating": {"type": "integer"}}),
    "Stats": _object(
        {
            "rating": {"type": "integer"},
            "tournaments_played": {"type": "integer", "minimum": 0},
            "wins": {"type": "integer", "minimum": 0, "description": "First places."},
            "podiums": {"type": "integer", "minimum": 0, "description": "Places 1 to 3."},
            "average_place": {
                "type": ["number", "null"],
                "description": "Rounded to 2 decimals; null before the first tournament.",
            },
            "win_streak": _object(
                {
                    "current": {"type": "integer", "minimum": 0},
                    "best": {"type": "integer", "minimum": 0},
                },
                "Tournaments won in a row: the run up to now and the longest.",
            ),
            "duels": ref("DuelCounts"),
            "guesses": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "minItems": 6,
                "maxItems": 6,
                "description": "Duels won by finding the word, by your turns used: the first "
                "number is duels won on your 1st turn, the last on your 6th (a skipped turn "
                "counts, R11).",
            },
            "rating_history": {
                "type": "array",
                "items": ref("RatingPoint"),
                "maxItems": 50,
                "description": "Oldest first: the rating before your first tournament, then "
                "after each (the latest 50 points).",
            },
            "last_played": {**NULLABLE_INT, "description": "Your latest finish (ms)."},
            "languages": {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "Word language → your latest finish in it (ms).",
            },
        },
        "Your statistics, kept up to date with every place fixed.",
    ),
    "SummaryPlayer": _object(
        {
            "id": {"type": "string"},
            "nickname": {"type": "string"},
            "bot": {"type": "boolean"},
            "place": {"type": "integer", "minimum": 1, "maximum": 8},
            "rating": {"type": "integer", "description": "At the start (D5)."},
            "rating_change": {"type": "integer"},
            "out_round": {**NULLABLE_INT, "description": "Null for the winner."},
            "rounds_played": {"type": "integer", "minimum": 1},
            "left": {"type": "boolean"},
        }
    ),
    "Summary": _object(
        {
            "id": {"type": "string"},
            "language": LANGUAGE,
            "started_at": _MS,
            "finished_at": _MS,
            "rounds_played": {"type": "integer", "minimum": 1},
            "players": {
                "type": "array",
                "items": ref("SummaryPlayer"),
                "description": "By place, best first.",
            },
            "rounds": {"type": "array", "items": ref("HistoryRound")},
        },
        "A finished tournament's results: public, and never changing.",
    ),
    "LeaderboardLine": _object(
        {
            "rank": {"type": "integer", "minimum": 1, "description": "Shared by equal ratings."},
            "player_id": {"type": "string"},
            "nickname": {"type": "string"},
            "rating": {"type": "integer"},
            "last_played": {**_MS, "description": "Latest finish on this board."},
        }
    ),
    "Leaderboard": _object(
        {
            "board": {
                "type": "string",
                "description": "`all`, or the word language asked for.",
                "examples": ["all", "en"],
            },
            "as_of": {
                **_MS,
                "description": "How old the snapshot is: the players are read in parts, the "
                "stalest anew about every minute, and this is when the oldest part was read.",
            },
            "window_days": {"type": "integer", "const": 30},
            "players": {
                "type": "integer",
                "minimum": 0,
                "description": "Players on the board: finished a tournament (in its language) "
                "within the window.",
            },
            "top": {"type": "array", "items": ref("LeaderboardLine"), "maxItems": 100},
            "you": {
                **_object(
                    {
                        "player_id": {"type": "string"},
                        "nickname": {"type": "string"},
                        "rating": {"type": "integer", "description": "Now."},
                        "rank": {
                            **NULLABLE_INT,
                            "minimum": 1,
                            "description": "1 + the players of the snapshot rated above your "
                            "rating now (never yourself); null when you are not on this board "
                            "(no finish in the window, or a bot).",
                        },
                    }
                ),
                "description": "Only when the request carries a token.",
            },
        },
        "The top 100 by rating of the players who finished a tournament in the last 30 days "
        "(R15), as of the latest snapshot.",
        optional=("you",),
    ),
}
