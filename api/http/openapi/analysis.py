"""The OpenAPI path and schemas of the coach: a duel's analysis once it has ended (D19)."""

from __future__ import annotations

from api.http.openapi.parts import JSON, LANGUAGE, json_body, op, path_param, ref
from api.service.context import id_pattern
from api.service.tournaments import DUEL_ID

_TILES = {
    "type": "array",
    "items": {"type": "string"},
    "minItems": 4,
    "maxItems": 6,
    "description": "A word as tiles (a tile may be more than one letter, e.g. Uzbek `oʻ`).",
}
_NULLABLE_TILES = {**_TILES, "type": ["array", "null"]}
_SCORE = {"type": ["integer", "null"], "minimum": 0, "maximum": 100}
_EXPECTED = {"type": ["number", "null"], "minimum": 0}


def _object(properties: JSON, description: str) -> JSON:
    return {
        "type": "object",
        "required": list(properties),
        "properties": properties,
        "description": description,
    }


ANALYSIS_SCHEMAS: JSON = {
    "AnalysisRow": _object(
        {
            "row": {"type": "integer", "minimum": 0, "description": "0-based board row."},
            "by": {"type": "string", "description": "The player who played it (R10)."},
            "skipped": {
                "type": "boolean",
                "description": "A turn that ran out (R11): no word, no scores.",
            },
            "tiles": {**_NULLABLE_TILES, "description": "The word played; null if skipped."},
            "marks": {
                "type": ["string", "null"],
                "pattern": "^[GY-]{4,6}$",
                "description": "Its feedback: G correct, Y present, - absent; null if skipped.",
            },
            "before": {
                "type": "integer",
                "minimum": 1,
                "description": "Words that could still be the secret before the row.",
            },
            "after": {
                "type": "integer",
                "minimum": 0,
                "description": "Words still to be found after it: 0 once it found the secret.",
            },
            "best": {
                **_NULLABLE_TILES,
                "description": "The best word found (the smallest expected number left among "
                "those compared: every candidate up to 100, else 100 of them, 100 of every "
                "accepted word, and the played word), never a blocked word of the language "
                "(R25's list: the coach does not suggest one); null if skipped.",
            },
            "best_expected": {
                **_EXPECTED,
                "description": "The best word's expected number of words left (2 decimals).",
            },
            "played_expected": {
                **_EXPECTED,
                "description": "The played word's expected number of words left.",
            },
            "skill": {
                **_SCORE,
                "description": "100 × ln((1+before)/(1+played_expected)) / "
                "ln((1+before)/(1+best_expected)), clamped to 0–100: 100 is the best word, 0 a "
                "word that tells nothing.",
            },
            "luck": {
                **_SCORE,
                "description": "50 when the outcome was the played word's expectation; 100 at "
                "its best possible outcome, 0 at its worst (linear in ln(1+words left)).",
            },
            "info_share": {
                "type": ["number", "null"],
                "description": "log2(before/after) over log2(before), 3 decimals: the share of "
                "the information still needed that the row gained (null once one word was "
                "left, or when skipped).",
            },
        },
        "One row of the shared board (D4), as the coach judges it.",
    ),
    "AnalysisSummary": _object(
        {
            "player": {"type": "string"},
            "guesses": {"type": "integer", "minimum": 0, "description": "Words played."},
            "skill": {**_SCORE, "description": "The mean of the player's rows; null if none."},
            "luck": {**_SCORE, "description": "The mean of the player's rows; null if none."},
        },
        "One player's rows of the duel, summed up.",
    ),
    "DuelAnalysis": _object(
        {
            "tournament": {"type": "string", "pattern": f"^{id_pattern('t')}$"},
            "round": {"type": "integer", "minimum": 1},
            "language": LANGUAGE,
            "word_length": {"type": "integer", "minimum": 4, "maximum": 6},
            "version": {
                "type": "integer",
                "minimum": 1,
                "description": "Of the analysis method (the entity tag names it too).",
            },
            "duel": {"type": "string", "pattern": f"^{DUEL_ID.pattern}$"},
            "players": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2},
            "secret": _TILES,
            "winner": {
                "type": ["string", "null"],
                "description": "Null for a draw (R14).",
            },
            "rows": {"type": "array", "items": ref("AnalysisRow"), "description": "In order."},
            "players_summary": {
                "type": "array",
                "items": ref("AnalysisSummary"),
                "minItems": 2,
                "maxItems": 2,
                "description": "In the order of `players`.",
            },
        },
        "D19: how good each row of an ended duel was against the best word available "
        "(docs/decisions.md gives the formulas). The same for good: cache it.",
    ),
}

_CACHING = {
    "ETag": {
        "schema": {"type": "string"},
        "description": "The analysis method's version: an ended duel's analysis never changes.",
    },
    "Cache-Control": {
        "schema": {"type": "string"},
        "description": "`public, max-age=31536000, immutable` once the tournament has "
        "finished; `private, …` while it is live (only its players may read it then).",
    },
}


def analysis_paths() -> JSON:
    return {
        "/v1/tournaments/{tournament_id}/duels/{duel_id}/analysis": {
            "get": op(
                "The coach: an ended duel's analysis, row by row (D19)",
                {
                    "200": {
                        **json_body(ref("DuelAnalysis"), "The analysis"),
                        "headers": _CACHING,
                    },
                    "304": {"description": "The same analysis", "headers": _CACHING},
                },
                errors=("401", "403", "404", "409", "503"),
                params=(
                    path_param("tournament_id", "Tournament id", id_pattern("t")),
                    path_param("duel_id", "Duel id, e.g. r3d2", DUEL_ID.pattern),
                    {
                        "name": "If-None-Match",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string"},
                    },
                ),
                extra={
                    "description": "Only once the duel has ended: a duel still being played is "
                    "a 409 `duel_in_play` (never a hint: no secret, candidates or best word of "
                    "a live duel). While the tournament is live, its players only (a token; "
                    "401, 403 `not_a_participant`); once it has finished, anyone, without a "
                    "token, like its summary. 404 for a tournament or duel that does not exist.",
                    "security": [{}, {"bearer": []}],
                },
            )
        }
    }
