"""What core needs from a language's word lists, passed in by the shell (D12, D13, R24)."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.solver.lexicon import Lexicon

Word = tuple[str, ...]
WORD_LENGTHS = (4, 5, 6)  # R24


@dataclass(frozen=True, slots=True)
class WordSource:
    """`accepts(word)` says whether a guess is in the word list; `draw(length, rng, exclude)`
    returns a secret of that many tiles that is not in `exclude`.

    `lexicon(length)` gives the secrets and accepted words of that length, indexed for the
    solver (core.solver.lexicon.Lexicon.build): house bots (D18) and the duel analysis (D19)
    need it. The shell builds each one once and keeps it (building one takes milliseconds);
    a source without it serves every tournament that has no house bot."""

    accepts: Callable[[Word], bool]
    draw: Callable[[int, random.Random, Collection[Word]], Word]
    lexicon: Callable[[int], Lexicon] | None = None
