"""The shell's word sources for core: `wordlists` behind `core.words.WordSource` (D12).

`lexicon(language, length)` builds the solver's index of one language's words of one length
(core.solver.lexicon) once per process, on first use: house bots (D18) and the duel analysis
(D19) need it, and a tournament without house bots never asks for it.
"""

from __future__ import annotations

from functools import cache

import wordlists
from core.solver.lexicon import Lexicon
from core.words import WordSource


@cache
def lexicon(language: str, length: int) -> Lexicon:
    return Lexicon.from_lists(
        wordlists.secret_words(language, length), wordlists.accepted_words(language, length)
    )


@cache
def word_source(language: str) -> WordSource:
    """Core's view of one language's word lists (loaded lazily by `wordlists`)."""
    return WordSource(
        accepts=lambda word: wordlists.is_accepted(language, word),
        draw=lambda length, rng, exclude: wordlists.draw_secret(language, length, rng, exclude),
        lexicon=lambda length: lexicon(language, length),
    )
