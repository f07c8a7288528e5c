"""Conditional requests and compact JSON bodies, shared by the routes that serve them."""

from __future__ import annotations

import json

from flask import request

# One encoder for every large body: compact, and without the cycle check (views are trees).
JSON_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)


def etags(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (weak ones compare by their opaque part)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",")}


def seen_version() -> int | None:
    """The newest tournament version the request's If-None-Match names (a state's ETag is
    `"<version>.<phase>.<where>"`), or None: what the client has already been shown."""
    wanted = request.environ.get("HTTP_IF_NONE_MATCH", "")
    found = [
        int(head)
        for tag in etags(wanted)
        if (head := tag.strip('"').partition(".")[0]).isdigit() and len(head) < 10
    ]
    return max(found, default=None)


def seen_places() -> set[str]:
    """The positions (the Where fingerprint, a state ETag's last part) the request's
    If-None-Match names: where the client was last shown to be."""
    wanted = request.environ.get("HTTP_IF_NONE_MATCH", "")
    return {tag.strip('"').rpartition(".")[2] for tag in etags(wanted) if tag.count(".") == 2}


def not_modified(etag: str) -> bool:
    """Whether the request's If-None-Match names `etag` (or is `*`)."""
    wanted = request.environ.get("HTTP_IF_NONE_MATCH", "")
    return bool(wanted) and (wanted.strip() == "*" or etag in etags(wanted))
