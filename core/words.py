"""What core needs from a language's word lists, passed in by the shell (D12, D13, R24)."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from dataclasses import dataclass

Word = tuple[str, ...]
WORD_LENGTHS = (4, 5, 6)  # R24


@dataclass(frozen=True, slots=True)
class WordSource:
    """`accepts(word)` says whether a guess is in the word list; `draw(length, rng, exclude)`
    returns a secret of that many tiles that is not in `exclude`."""

    accepts: Callable[[Word], bool]
    draw: Callable[[int, random.Random, Collection[Word]], Word]
