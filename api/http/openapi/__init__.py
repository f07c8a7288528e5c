"""The OpenAPI 3.1 description of every route. A test keeps it in step with the Flask app."""

from __future__ import annotations

from functools import cache

from api.http.openapi.analysis import ANALYSIS_SCHEMAS, analysis_paths
from api.http.openapi.history_paths import history_paths
from api.http.openapi.history_schemas import HISTORY_SCHEMAS
from api.http.openapi.operations import name_operations
from api.http.openapi.parts import (
    JSON,
    LANGUAGE,
    NICKNAME,
    json_body,
    op,
    path_param,
    ref,
)
from api.http.openapi.schemas import SCHEMAS
from api.http.openapi.state_schemas import STATE_SCHEMAS
from api.service.context import id_pattern
from api.service.tournaments import DUEL_ID, WORD_PATTERN

DUEL_PATTERN = DUEL_ID.pattern

_WHERE_HEADER = {
    "schema": {"type": "string"},
    "description": "The caller's position (schema Where) as compact JSON; on every "
    "authenticated GET, so that a client on any screen can route from it (except a state's 304 "
    "answered by its poll pass: the position is the one its ETag names).",
}
_STATE_HEADERS = {
    "ETag": {
        "schema": {"type": "string"},
        "description": "Opaque: built from the state's version, its phase and the caller's "
        "position and, while the caller plays on, a poll pass bound to their token that lets the "
        "next 304 skip reading their player for 30 s (docs/client.md). Send the last one back "
        "exactly as given.",
    },
    "Poll-Interval": {
        "schema": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]{1,3})?$"},
        "description": "Seconds (to the millisecond, e.g. 0.35) to wait before polling again: "
        "just after the next change this viewer must see (docs/client.md).",
    },
    "Where": _WHERE_HEADER,
}


def _state_ok(description: str) -> JSON:
    return {"200": {**json_body(ref("State"), description), "headers": _STATE_HEADERS}}


_HISTORY_ETAG = {
    "schema": {"type": "string"},
    "description": "The number of rounds it holds; rounds that have ended never change.",
}
_IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
}
_TID = path_param("tournament_id", "Tournament id", id_pattern("t"))
_GID = path_param("group_id", "Group id", id_pattern("g"))
_NEW_TOKEN = json_body(ref("NewPlayer"), "Your profile and your new bearer token")


@cache
def openapi_document() -> JSON:
    paths: JSON = {
        "/openapi.json": {
            "get": op(
                "This document",
                {"200": {"description": "OpenAPI 3.1"}},
                auth=False,
                errors=("429",),
            )
        },
        "/v1/health": {
            "get": op(
                "Liveness and storage check (the store read and written); names the store and "
                "the table",
                {"200": json_body(ref("Health"), "Healthy")},
                auth=False,
                errors=("429", "503"),
            )
        },
        "/v1/languages": {
            "get": op(
                "The 13 languages with their tiles and keyboards",
                {
                    "200": json_body(
                        {
                            "type": "object",
                            "properties": {
                                "languages": {"type": "array", "items": ref("Language")},
                                "word_lengths": {"type": "array", "items": {"type": "integer"}},
                            },
                        },
                        "Languages",
                    )
                },
                auth=False,
                errors=("429",),
            )
        },
        "/v1/players": {
            "post": op(
                "Create an anonymous player (rating 1000, generated nickname)",
                {"201": json_body(ref("NewPlayer"), "The player and its bearer token")},
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
                    "description": "New players are budgeted per address (IPv6 /64), per "
                    "network (/24 and /16; IPv6 /48 and /32) and for everyone (README's rate "
                    "limits). A refused creation is a 429 with `Retry-After` and the code "
                    "`too_many_new_players`, whose `details.scope` is `address`, `network` "
                    "(with `details.network`) or `global`.",
                    "requestBody": {
                        "required": False,
                        "description": "Optional: no body, or a JSON object. `bot` (with "
                        "X-Bot-Key) creates a bot that plays through the API (the load "
                        "harness's; not a house bot, which the service plays itself, D18), "
                        "marked as a bot in every state, "
                        "optionally at `rating`; without the key that is a 403 `bot_key`. "
                        "Unknown fields, wrong types and a rating without `bot` are a 400.",
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "additionalProperties": False,
                                    # A rating only for a bot.
                                    "dependentSchemas": {
                                        "rating": {
                                            "required": ["bot"],
                                            "properties": {"bot": {"const": True}},
                                        }
                                    },
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
                    },
                },
            )
        },
        "/v1/me": {
            "get": op(
                "Your profile and where you are now",
                {
                    "200": {
                        **json_body(ref("Profile"), "Profile"),
                        "headers": {"Where": _WHERE_HEADER},
                    }
                },
            ),
            "patch": op(
                "Change your nickname",
                {"200": json_body(ref("Profile"), "Profile")},
                body={
                    "type": "object",
                    "required": ["nickname"],
                    "properties": {"nickname": NICKNAME},
                },
            ),
        },
        "/v1/me/token": {
            "post": op(
                "Rotate your token: a new one; the one you sent stops working at once (a state "
                "poll that names its state may read with it while replicas catch up, about a "
                "second)",
                {"201": _NEW_TOKEN},
                errors=("401", "503"),
            ),
            "delete": op(
                "Sign out: your token stops working. The player stays (rating, group, any "
                "lobby or tournament go on without you) but nobody can act as it again",
                {"204": {"description": "Signed out"}},
                errors=("401", "503"),
            ),
        },
        "/v1/queue": {
            "post": op(
                "Join matchmaking in a language (lobbies within 200 rating points)",
                {
                    "201": json_body(
                        ref("Lobby"),
                        "The lobby you sit in after any merge; tournament_id is set if it started",
                    )
                },
                body={
                    "type": "object",
                    "required": ["language"],
                    "properties": {"language": {**LANGUAGE, "examples": ["en"]}},
                },
                extra={
                    "description": "Seats you in the best lobby in reach (D6), or opens one; "
                    "then lobbies nearby whose players can play together merge at once (D15)."
                },
            ),
            "get": op(
                "Your wait and the players searching in your window",
                {"200": json_body(ref("QueueStatus"), "Queue status")},
                extra={
                    "description": "Poll it (about once a second) while you wait: it keeps "
                    "your seat (D16: a seat is given up after 60 s without a request; GET "
                    "/v1/me and GET /v1/lobbies/{lobby_id} count too) and merges your lobby "
                    "with lobbies nearby (D15). Its cost does not grow with the number of open "
                    "lobbies."
                },
            ),
            "delete": op(
                "Leave the lobby before the start, at no cost",
                {"204": {"description": "Left"}},
            ),
        },
        "/v1/lobbies/{lobby_id}": {
            "get": op(
                "A lobby's seats and, once full, its tournament",
                {"200": json_body(ref("Lobby"), "Lobby")},
                params=(path_param("lobby_id", "Lobby id", id_pattern("l")),),
            )
        },
        "/v1/groups": {
            "post": op(
                "Create a group and become its leader",
                {"201": json_body(ref("Group"), "The group with its invite code")},
                body={
                    "type": "object",
                    "required": ["language"],
                    "properties": {"language": LANGUAGE},
                },
            )
        },
        "/v1/groups/join": {
            "post": op(
                "Join a group with an invite code",
                {"200": json_body(ref("Group"), "The group")},
                body={
                    "type": "object",
                    "required": ["invite_code"],
                    "properties": {
                        "invite_code": {
                            "type": "string",
                            "minLength": 3,
                            "maxLength": 100,
                            "description": "`<group id>.<secret>`, as in the invite link",
                        }
                    },
                },
            )
        },
        "/v1/groups/{group_id}": {
            "get": op(
                "A group (members only)", {"200": json_body(ref("Group"), "Group")}, params=(_GID,)
            )
        },
        "/v1/groups/{group_id}/start": {
            "post": op(
                "Leader only: seat the whole group in a lobby; matchmaking fills the rest",
                {"201": json_body(ref("Lobby"), "The group's lobby")},
                params=(_GID,),
            )
        },
        "/v1/groups/{group_id}/invite": {
            "post": op(
                "Leader only: a new invite code; the old one is revoked",
                {"200": json_body(ref("Group"), "Group with the new code")},
                params=(_GID,),
            )
        },
        "/v1/groups/{group_id}/members/{member_id}": {
            "delete": op(
                "Leave the group, or (leader) remove a member",
                {
                    "200": json_body(ref("Group"), "The group after removing a member"),
                    "204": {"description": "You left, or the group is now empty"},
                },
                params=(_GID, path_param("member_id", "The member's player id", id_pattern("p"))),
            )
        },
        "/v1/tournaments/{tournament_id}/state": {
            "get": op(
                "The compact state to poll; honours If-None-Match",
                {
                    **_state_ok("State"),
                    "304": {"description": "Unchanged since the ETag", "headers": _STATE_HEADERS},
                },
                params=(
                    _TID,
                    _IF_NONE_MATCH,
                    {
                        "name": "watch",
                        "in": "query",
                        "required": False,
                        "description": "A duel id the client shows in full (R9): the poll "
                        "advice then follows that duel's turns.",
                        "schema": {"type": "string", "pattern": f"^{DUEL_PATTERN}$"},
                    },
                ),
            )
        },
        "/v1/tournaments/{tournament_id}/history": {
            "get": op(
                "Every round played so far: pairings, byes, who went out, final boards and "
                "secrets; honours If-None-Match",
                {
                    "200": {
                        **json_body(ref("History"), "History"),
                        "headers": {"ETag": _HISTORY_ETAG},
                    },
                    "304": {
                        "description": "No round has ended since the ETag",
                        "headers": {"ETag": _HISTORY_ETAG},
                    },
                },
                params=(_TID, _IF_NONE_MATCH),
            )
        },
        "/v1/tournaments/{tournament_id}/guesses": {
            "post": op(
                "Play a guess on your duel's board row `row` (0-based)",
                _state_ok("The state after the guess (a retried row gets the same answer)"),
                body={
                    "type": "object",
                    "required": ["row", "word"],
                    "properties": {
                        "row": {"type": "integer", "minimum": 0},
                        "word": {
                            "type": "string",
                            "minLength": 1,
                            "maxLength": 64,
                            "pattern": WORD_PATTERN,
                            "description": "At least one character that is not whitespace.",
                        },
                        "duel": {
                            "type": "string",
                            "pattern": f"^{DUEL_PATTERN}$",
                            "description": "The duel id (e.g. r3d2). Optional; with it, a "
                            "retry of the guess that ended a round still gets the same answer.",
                        },
                    },
                },
                params=(_TID,),
            )
        },
        "/v1/tournaments/{tournament_id}/leave": {
            "post": op(
                "Leave the tournament: an automatic loss (free once you are out)",
                _state_ok("The state after leaving"),
                params=(_TID,),
            )
        },
        "/v1/tournaments/{tournament_id}/duels/{duel_id}": {
            "get": op(
                "Watch any duel of your tournament",
                {"200": json_body(ref("Duel"), "The duel")},
                params=(_TID, path_param("duel_id", "Duel id, e.g. r3d2", DUEL_PATTERN)),
            )
        },
        **history_paths(),
        **analysis_paths(),
    }
    name_operations(paths)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Wordle Tournament API",
            "version": "1.0.0",
            "description": "8-player Wordle tournaments. Rules: docs/rules.md in the repository. "
            "Every response carries `Web-Client-Version`: the version of the browser client "
            "served with this API (a cached browser client that differs reloads).",
        },
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {**SCHEMAS, **STATE_SCHEMAS, **HISTORY_SCHEMAS, **ANALYSIS_SCHEMAS},
        },
        "paths": paths,
    }
