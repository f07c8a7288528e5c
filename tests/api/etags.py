"""State ETags in tests: `"<version>.<phase>.<where>[.<poll pass>]"`."""

from __future__ import annotations


def without_pass(etag: str) -> str:
    """A state ETag as a client that dropped its poll pass would send it (the state it names)."""
    return '"' + ".".join(etag.strip('"').split(".")[:3]) + '"'
