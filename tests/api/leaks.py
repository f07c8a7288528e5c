"""Where a secret word shows in a response body, however it is spelled: it must not before its
duel ends."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any


def _strings_and_lists(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _strings_and_lists(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings_and_lists(value)


def leaks(body: bytes, secret: Sequence[str]) -> list[str]:
    """Where `secret` shows in a response body: as text, or as its list of tiles."""
    found: list[str] = []
    joined = "".join(secret)
    text = body.decode("utf-8", "replace")
    # As a word on its own (ids are hex and nicknames CamelCase, so no accidental matches).
    if re.search(rf"(?<![0-9A-Za-z]){re.escape(joined)}(?![0-9A-Za-z])", text, re.IGNORECASE):
        found.append(f"text {joined!r}")
    for spacing in ((",", ":"), (", ", ": ")):
        if json.dumps(list(secret), separators=spacing, ensure_ascii=False) in text:
            found.append("tiles JSON")
        if json.dumps(list(secret), separators=spacing) in text:
            found.append("tiles JSON (escaped)")
    try:
        data = json.loads(text) if text else None
    except ValueError:
        data = None
    for node in _strings_and_lists(data):
        if isinstance(node, list) and node == list(secret):
            found.append("tile list")
        if isinstance(node, str) and node.lower() == joined.lower():
            found.append("string")
    return found
