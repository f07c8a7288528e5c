"""The OpenAPI 3.1 description of every route. A test keeps it in step with the Flask app."""

from __future__ import annotations

from functools import cache
from typing import Any

JSON = dict[str, Any]


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: JSON, description: str) -> JSON:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> JSON:
    return _json(_ref("Error"), description)


_ERRORS = {
    "400": _error("Malformed request (not a JSON object, wrong types)."),
    "401": _error("Missing, malformed or unknown bearer token."),
    "403": _error("The caller may not do this (not a member, not the leader, not a player)."),
    "404": _error("No such resource."),
    "409": _error("Conflicts with the game's state (not your turn, stale row, busy, …)."),
    "422": _error("Invalid input (unknown language, word not in the list, bad nickname, …)."),
    "429": _error("Too many requests; see Retry-After."),
    "503": _error("Storage unavailable or too busy; see Retry-After."),
}


def _op(
    summary: str,
    ok: JSON,
    *,
    auth: bool = True,
    body: JSON | None = None,
    errors: tuple[str, ...] = ("400", "401", "403", "404", "409", "422", "429", "503"),
    params: tuple[JSON, ...] = (),
    extra: JSON | None = None,
) -> JSON:
    op: JSON = {"summary": summary, "responses": {**ok, **{c: _ERRORS[c] for c in errors}}}
    if not auth:
        op["security"] = []
    if body is not None:
        op["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": body}},
        }
    if params:
        op["parameters"] = list(params)
    if extra:
        op.update(extra)
    return op


def _path_param(name: str, description: str) -> JSON:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string"},
    }


_NULLABLE_STR = {"type": ["string", "null"]}
_NULLABLE_INT = {"type": ["integer", "null"]}

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
            "id": {"type": "string"},
            "nickname": {"type": "string"},
            "rating": {"type": "integer"},
            "tournaments_played": {"type": "integer"},
            "lobby_id": _NULLABLE_STR,
            "tournament_id": _NULLABLE_STR,
            "last_tournament_id": _NULLABLE_STR,
            "group_id": _NULLABLE_STR,
            "bot": {"type": "boolean"},
        },
    },
    "NewPlayer": {
        "allOf": [
            _ref("Profile"),
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
    "Language": {
        "type": "object",
        "properties": {
            "code": {"type": "string"},
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
            "language": {"type": "string"},
            "created_at": {"type": "integer", "description": "ms since the epoch"},
            "rating": _NULLABLE_INT,
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"player_id": {"type": "string"}, "nickname": _NULLABLE_STR},
                },
            },
            "open_seats": {"type": "integer"},
            "group_id": _NULLABLE_STR,
            "tournament_id": {
                **_NULLABLE_STR,
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
                "description": "Players waiting in lobbies within your rating window.",
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
            "lobby": {"oneOf": [_ref("Lobby"), {"type": "null"}]},
        },
    },
    "Group": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "language": {"type": "string"},
            "leader": {"type": "string"},
            "invite_code": {"type": "string"},
            "lobby_id": _NULLABLE_STR,
            "members": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "player_id": {"type": "string"},
                        "nickname": _NULLABLE_STR,
                        "rating": _NULLABLE_INT,
                        "lobby_id": _NULLABLE_STR,
                        "tournament_id": _NULLABLE_STR,
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
            "winner": _NULLABLE_STR,
            "at": {"type": "integer"},
        },
    },
    "Duel": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "players": {"type": "array", "items": {"type": "string"}},
            "word_length": {"type": "integer"},
            "rows": {"type": "array", "items": _ref("Row")},
            "turns_used": {"type": "object", "additionalProperties": {"type": "integer"}},
            "starts_at": {"type": "integer"},
            "to_play": _NULLABLE_STR,
            "deadline": {**_NULLABLE_INT, "description": "When the current turn times out."},
            "your_turn": {"type": "boolean"},
            "result": _ref("Result"),
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
            "language": {"type": "string"},
            "phase": {"enum": ["intro", "duels", "finished"]},
            "phase_deadline": _NULLABLE_INT,
            "round": {"type": "integer"},
            "server_time": {"type": "integer"},
            "finished_at": _NULLABLE_INT,
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
                        "place": _NULLABLE_INT,
                        "rating_change": _NULLABLE_INT,
                    },
                },
            },
            "pairings": {"type": "array", "items": {"type": "array"}},
            "bye": _NULLABLE_STR,
            "you": _NULLABLE_STR,
            "duel": {"oneOf": [_ref("Duel"), {"type": "null"}]},
            "duels": {"type": "array", "items": {"type": "object"}},
        },
    },
}

_STATE_HEADERS = {
    "ETag": {"schema": {"type": "string"}, "description": "Built from the state's version."},
    "Poll-Interval": {
        "schema": {"type": "integer"},
        "description": "Seconds to wait before polling again.",
    },
}


def _state_ok(description: str) -> JSON:
    return {"200": {**_json(_ref("State"), description), "headers": _STATE_HEADERS}}


_TID = _path_param("tournament_id", "Tournament id")
_GID = _path_param("group_id", "Group id")


@cache
def openapi_document() -> JSON:
    paths: JSON = {
        "/openapi.json": {
            "get": _op(
                "This document",
                {"200": {"description": "OpenAPI 3.1"}},
                auth=False,
                errors=(),
            )
        },
        "/v1/health": {
            "get": _op(
                "Liveness and storage check",
                {"200": _json({"type": "object"}, "Healthy")},
                auth=False,
                errors=("503",),
            )
        },
        "/v1/languages": {
            "get": _op(
                "The 13 languages with their tiles and keyboards",
                {
                    "200": _json(
                        {
                            "type": "object",
                            "properties": {
                                "languages": {"type": "array", "items": _ref("Language")},
                                "word_lengths": {"type": "array", "items": {"type": "integer"}},
                            },
                        },
                        "Languages",
                    )
                },
                auth=False,
                errors=(),
            )
        },
        "/v1/players": {
            "post": _op(
                "Create an anonymous player (rating 1000, generated nickname)",
                {"201": _json(_ref("NewPlayer"), "The player and its bearer token")},
                auth=False,
                errors=("400", "403", "429", "503"),
                params=(
                    {
                        "name": "X-Bot-Key",
                        "in": "header",
                        "required": False,
                        "description": "The server's bot key (WT_BOT_KEY); only for bots.",
                        "schema": {"type": "string"},
                    },
                ),
                extra={
                    "requestBody": {
                        "required": False,
                        "description": "Optional. `bot` (with X-Bot-Key) creates a practice "
                        "bot, marked as a bot in every state, optionally at `rating`; without "
                        "the key that is a 403 `bot_key`.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "bot": {"type": "boolean", "default": False},
                                        "rating": {
                                            "type": "integer",
                                            "minimum": 0,
                                            "maximum": 4000,
                                        },
                                    },
                                }
                            }
                        },
                    }
                },
            )
        },
        "/v1/me": {
            "get": _op("Your profile", {"200": _json(_ref("Profile"), "Profile")}),
            "patch": _op(
                "Change your nickname",
                {"200": _json(_ref("Profile"), "Profile")},
                body={
                    "type": "object",
                    "required": ["nickname"],
                    "properties": {"nickname": {"type": "string", "minLength": 3}},
                },
            ),
        },
        "/v1/queue": {
            "post": _op(
                "Join matchmaking in a language (lobbies within 200 rating points)",
                {"201": _json(_ref("Lobby"), "The lobby you sit in")},
                body={
                    "type": "object",
                    "required": ["language"],
                    "properties": {"language": {"type": "string", "examples": ["en"]}},
                },
            ),
            "get": _op(
                "Your wait and the players searching in your window",
                {"200": _json(_ref("QueueStatus"), "Queue status")},
            ),
            "delete": _op(
                "Leave the lobby before the start, at no cost",
                {"204": {"description": "Left"}},
            ),
        },
        "/v1/lobbies/{lobby_id}": {
            "get": _op(
                "A lobby's seats and, once full, its tournament",
                {"200": _json(_ref("Lobby"), "Lobby")},
                params=(_path_param("lobby_id", "Lobby id"),),
            )
        },
        "/v1/groups": {
            "post": _op(
                "Create a group and become its leader",
                {"201": _json(_ref("Group"), "The group with its invite code")},
                body={
                    "type": "object",
                    "required": ["language"],
                    "properties": {"language": {"type": "string"}},
                },
            )
        },
        "/v1/groups/join": {
            "post": _op(
                "Join a group with an invite code",
                {"200": _json(_ref("Group"), "The group")},
                body={
                    "type": "object",
                    "required": ["invite_code"],
                    "properties": {"invite_code": {"type": "string"}},
                },
            )
        },
        "/v1/groups/{group_id}": {
            "get": _op(
                "A group (members only)", {"200": _json(_ref("Group"), "Group")}, params=(_GID,)
            )
        },
        "/v1/groups/{group_id}/start": {
            "post": _op(
                "Leader only: seat the whole group in a lobby; matchmaking fills the rest",
                {"201": _json(_ref("Lobby"), "The group's lobby")},
                params=(_GID,),
            )
        },
        "/v1/groups/{group_id}/invite": {
            "post": _op(
                "Leader only: a new invite code; the old one is revoked",
                {"200": _json(_ref("Group"), "Group with the new code")},
                params=(_GID,),
            )
        },
        "/v1/groups/{group_id}/members/{member_id}": {
            "delete": _op(
                "Leave the group, or (leader) remove a member",
                {
                    "200": _json(_ref("Group"), "The group after removing a member"),
                    "204": {"description": "You left, or the group is now empty"},
                },
                params=(_GID, _path_param("member_id", "The member's player id")),
            )
        },
        "/v1/tournaments/{tournament_id}/state": {
            "get": _op(
                "The compact state to poll; honours If-None-Match",
                {
                    **_state_ok("State"),
                    "304": {"description": "Unchanged since the ETag", "headers": _STATE_HEADERS},
                },
                params=(
                    _TID,
                    {
                        "name": "If-None-Match",
                        "in": "header",
                        "required": False,
                        "schema": {"type": "string"},
                    },
                ),
            )
        },
        "/v1/tournaments/{tournament_id}/guesses": {
            "post": _op(
                "Play a guess on your duel's board row `row` (0-based)",
                _state_ok("The state after the guess (a retried row gets the same answer)"),
                body={
                    "type": "object",
                    "required": ["row", "word"],
                    "properties": {
                        "row": {"type": "integer", "minimum": 0},
                        "word": {"type": "string"},
                        "duel": {
                            "type": "string",
                            "description": "The duel id (e.g. r3d2). Optional; with it, a "
                            "retry of the guess that ended a round still gets the same answer.",
                        },
                    },
                },
                params=(_TID,),
            )
        },
        "/v1/tournaments/{tournament_id}/leave": {
            "post": _op(
                "Leave the tournament: an automatic loss (free once you are out)",
                _state_ok("The state after leaving"),
                params=(_TID,),
            )
        },
        "/v1/tournaments/{tournament_id}/duels/{duel_id}": {
            "get": _op(
                "Watch any duel of your tournament",
                {"200": _json(_ref("Duel"), "The duel")},
                params=(_TID, _path_param("duel_id", "Duel id, e.g. r3d2")),
            )
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Wordle Tournament API",
            "version": "1.0.0",
            "description": "8-player Wordle tournaments. Rules: docs/rules.md in the repository.",
        },
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": SCHEMAS,
        },
        "paths": paths,
    }
