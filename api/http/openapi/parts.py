"""Builders shared by the OpenAPI document's schemas and paths."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]


def ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def json_body(schema: JSON, description: str) -> JSON:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def error(description: str) -> JSON:
    return json_body(ref("Error"), description)


ERRORS = {
    "400": error("Malformed request (not a JSON object, wrong types)."),
    "401": error("Missing, malformed or unknown bearer token."),
    "403": error("The caller may not do this (not a member, not the leader, not a player)."),
    "404": error("No such resource."),
    "409": error("Conflicts with the game's state (not your turn, stale row, busy, …)."),
    "422": error("Invalid input (unknown language, word not in the list, bad nickname, …)."),
    "429": error("Too many requests; see Retry-After."),
    "503": error("Storage unavailable or too busy; see Retry-After."),
}


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
    op: JSON = {"summary": summary, "responses": {**ok, **{c: ERRORS[c] for c in errors}}}
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


def path_param(name: str, description: str) -> JSON:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": {"type": "string"},
    }


NULLABLE_STR = {"type": ["string", "null"]}
NULLABLE_INT = {"type": ["integer", "null"]}
