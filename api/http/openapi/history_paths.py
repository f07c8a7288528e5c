"""The OpenAPI paths of players' history and statistics, public results and leaderboards."""

from __future__ import annotations

from api.http.openapi.parts import JSON, LANGUAGE, json_body, op, path_param, ref
from api.service.context import id_pattern
from api.service.history import CURSOR_PATTERN, MAX_PAGE, PAGE

_ETAG = {"ETag": {"schema": {"type": "string"}}}
_CACHE = {"Cache-Control": {"schema": {"type": "string"}}}
_IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
}


def history_paths() -> JSON:
    return {
        "/v1/me/history": {
            "get": op(
                "Your finished tournaments, newest first, a page at a time",
                {"200": json_body(ref("HistoryPage"), "One page")},
                errors=("400", "401", "422", "503"),
                params=(
                    {
                        "name": "cursor",
                        "in": "query",
                        "required": False,
                        "description": "The `next_cursor` of the page before (opaque).",
                        "schema": {"type": "string", "pattern": CURSOR_PATTERN},
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "required": False,
                        "description": "Entries per page.",
                        "schema": {
                            "type": "integer",
                            "minimum": 1,
                            "maximum": MAX_PAGE,
                            "default": PAGE,
                        },
                    },
                ),
            )
        },
        "/v1/me/stats": {
            "get": op(
                "Your statistics: places, streaks, duels, guess distribution, rating chart",
                {"200": json_body(ref("Stats"), "Statistics")},
                errors=("400", "401", "503"),
            )
        },
        "/v1/tournaments/{tournament_id}/summary": {
            "get": op(
                "A finished tournament's public results (no token needed): places, nicknames, "
                "rating changes, every round's boards and secrets. 404 `not_finished` until it "
                "has finished. Cacheable; honours If-None-Match",
                {
                    "200": {
                        **json_body(ref("Summary"), "The results"),
                        "headers": {**_ETAG, **_CACHE},
                    },
                    "304": {"description": "Unchanged", "headers": {**_ETAG, **_CACHE}},
                },
                auth=False,
                errors=("400", "404", "503"),
                params=(
                    path_param("tournament_id", "Tournament id", id_pattern("t")),
                    _IF_NONE_MATCH,
                ),
            )
        },
        "/v1/leaderboard": {
            "get": op(
                "The top 100 by rating among players who finished a tournament in the last 30 "
                "days, for everyone or one word language; with a token, also your rank. "
                "Honours If-None-Match without a token",
                {
                    "200": {
                        **json_body(ref("Leaderboard"), "The board"),
                        "headers": {**_ETAG, **_CACHE},
                    },
                    "304": {"description": "The same snapshot", "headers": {**_ETAG, **_CACHE}},
                },
                errors=("400", "401", "422", "503"),
                params=(
                    {
                        "name": "language",
                        "in": "query",
                        "required": False,
                        "description": "A word language; none: everyone's board.",
                        "schema": LANGUAGE,
                    },
                    _IF_NONE_MATCH,
                ),
                extra={"security": [{}, {"bearer": []}]},
            )
        },
    }
