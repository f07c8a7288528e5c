"""D3: standard Wordle feedback, tile by tile."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

CORRECT: Final = "G"
PRESENT: Final = "Y"
ABSENT: Final = "-"


def score(secret: Sequence[str], guess: Sequence[str]) -> str:
    """Marks for `guess` against `secret`, one of G/Y/- per tile.

    Exact positions are marked first; then, left to right, a tile is present only while the
    secret still has unmatched copies of it.
    """
    if len(secret) != len(guess):
        raise ValueError("secret and guess differ in length")
    marks: list[str] = []
    unmatched: dict[str, int] = {}
    for s, g in zip(secret, guess):  # noqa: B905 - lengths checked above, and this is hot
        if s == g:
            marks.append(CORRECT)
        else:
            marks.append(ABSENT)
            unmatched[s] = unmatched.get(s, 0) + 1
    if unmatched:
        for i, g in enumerate(guess):
            if marks[i] == ABSENT:
                left = unmatched.get(g)
                if left:
                    marks[i] = PRESENT
                    unmatched[g] = left - 1
    return "".join(marks)


def is_solved(marks: str) -> bool:
    return marks == CORRECT * len(marks)
