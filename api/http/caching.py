"""Conditional requests and compact JSON bodies, shared by the routes that serve them."""

from __future__ import annotations

import json

from flask import request

# One encoder for every large body: compact, and without the cycle check (views are trees).
JSON_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def etags(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (weak ones compare by their opaque part)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",")}


def _state_tags() -> list[list[str]]:
    """The state ETags the request's If-None-Match names, each as its parts: version, phase,
    Where fingerprint and, when it carries one, its poll pass (api/service/poll_passes.py)."""
    wanted = request.environ.get("HTTP_IF_NONE_MATCH")
    if not wanted:
        return []
    return [parts for tag in etags(wanted) if 3 <= len(parts := tag.strip('"').split(".")) <= 4]


def seen_version() -> int | None:
    """The newest tournament version the request's If-None-Match names (a state's ETag is
    `"<version>.<phase>.<where>[.<pass>]"`), or None: what the client has already been shown."""
    wanted = request.environ.get("HTTP_IF_NONE_MATCH")
    if not wanted:
        return None
    found = [
        int(head)
        for tag in etags(wanted)
        if (head := tag.strip('"').partition(".")[0]).isdigit() and len(head) < 10
    ]
    return max(found, default=None)


def seen_places() -> set[str]:
    """The positions (the Where fingerprint, a state ETag's third part) the request's
    If-None-Match names: where the client was last shown to be."""
    return {parts[2] for parts in _state_tags()}


def named_passes() -> list[tuple[str, str, str]]:
    """The state ETags of the If-None-Match that carry a poll pass, each as its ETag without
    the pass (`"<version>.<phase>.<where>"`), its Where fingerprint and the pass."""
    return [
        (f'"{".".join(parts[:3])}"', parts[2], parts[3])
        for parts in _state_tags()
        if len(parts) == 4
    ]


def names_state(etag: str) -> bool:
    """Whether the request's If-None-Match names the state ETag `etag` (without its pass),
    with or without a pass of its own, or is `*`."""
    wanted = request.environ.get("HTTP_IF_NONE_MATCH")
    if not wanted:
        return False
    if wanted.strip() == "*":
        return True
    return any(f'"{".".join(parts[:3])}"' == etag for parts in _state_tags())


def not_modified(etag: str) -> bool:
    """Whether the request's If-None-Match names `etag` (or is `*`)."""
    wanted = request.environ.get("HTTP_IF_NONE_MATCH", "")
    return bool(wanted) and (wanted.strip() == "*" or etag in etags(wanted))
