"""Builders shared by the OpenAPI document's schemas and paths."""

from __future__ import annotations

from typing import Any

import wordlists
from core import nicknames

JSON = dict[str, Any]


def ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def json_body(schema: JSON, description: str) -> JSON:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def error(description: str) -> JSON:
    return json_body(ref("Error"), description)


_RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer", "minimum": 1}, "description": "Seconds."}
}


def _with_headers(response: JSON, headers: JSON) -> JSON:
    return {**response, "headers": headers}


ERRORS = {
    "400": error("Malformed request (not a JSON object, wrong types, unknown fields)."),
    "401": _with_headers(
        error("Missing, malformed, unknown, rotated or signed-out bearer token."),
        {
            "WWW-Authenticate": {
                "schema": {"type": "string"},
                "description": 'Bearer realm="wordle-tournament" (with error="invalid_token" '
                "when a token was sent but does not work).",
            }
        },
    ),
    "403": error("The caller may not do this (not a member, not the leader, not a player)."),
    "404": error("No such resource."),
    "409": error("Conflicts with the game's state (not your turn, stale row, busy, …)."),
    "422": error("Invalid input (unknown language, word not in the list, bad nickname, …)."),
    "413": error("The request body is over 16 KiB."),
    "429": _with_headers(error("Too many requests; see Retry-After."), _RETRY_AFTER),
    "503": _with_headers(error("Storage unavailable or too busy; see Retry-After."), _RETRY_AFTER),
}
# Every operation may answer these: a body over the limit, a rate limit.
ALWAYS = ("413", "429")


def op(
    summary: str,
    ok: JSON,
    *,
    auth: bool = True,
    body: JSON | None = None,
    errors: tuple[str, ...] = ("400", "401", "403", "404", "409", "422", "429", "503"),
    params: tuple[JSON, ...] = (),
    extra: JSON | None = None,
) -> JSON:
    codes = sorted({*errors, *ALWAYS})
    op: JSON = {"summary": summary, "responses": {**ok, **{c: ERRORS[c] for c in codes}}}
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


def path_param(name: str, description: str, pattern: str) -> JSON:
    """A path parameter; a value that does not match `pattern` is a 404 (no such resource)."""
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string", "pattern": f"^{pattern}$"},
    }


# One named schema (one enum type in a generated client) for every word language field.
LANGUAGE_CODE: JSON = {
    "type": "string",
    "enum": list(wordlists.LANGUAGES),
    "description": "A word language (GET /v1/languages).",
}
LANGUAGE: JSON = {"$ref": "#/components/schemas/LanguageCode"}
NICKNAME: JSON = {
    "type": "string",
    "minLength": nicknames.MIN_LENGTH,
    "maxLength": nicknames.MAX_LENGTH,
    "pattern": nicknames.PATTERN,
    "description": f"{nicknames.MIN_LENGTH} to {nicknames.MAX_LENGTH} characters after "
    "Unicode NFC and collapsing spaces: letters and digits of any script, spaces, '_', '-' "
    "and '.', at least one visible letter; no invisible or filler characters, no word of the "
    "blocked-words lists, not confusable with another player's name in your lobby or group "
    "or on a leaderboard. The pattern says exactly which characters below U+0300 pass; above "
    "it, and for the length after collapsing spaces, blocked words and look-alikes, the "
    "server decides (422 invalid_nickname).",
    "examples": ["BraveOtter42"],
}


NULLABLE_STR = {"type": ["string", "null"]}
NULLABLE_INT = {"type": ["integer", "null"]}
