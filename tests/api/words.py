"""Words for the tests to play: valid guesses that can never be a secret."""

from __future__ import annotations

import wordlists

_FILLERS: dict[tuple[str, int], list[str]] = {}


def fillers(language: str, length: int) -> list[str]:
    """Valid guesses of `length` tiles that can never be a secret (accepted, not secret)."""
    key = (language, length)
    if key not in _FILLERS:
        secrets = set(wordlists.secret_words(language, length))
        words = ["".join(w) for w in wordlists.accepted_words(language, length) if w not in secrets]
        # Only words whose typed form normalises back to the same tiles.
        _FILLERS[key] = [w for w in words if len(wordlists.normalise(language, w)) == length]
    return _FILLERS[key]
