"""The shell's word sources for core: `wordlists` behind `core.words.WordSource` (D12).

`lexicon(language, length)` builds the solver's index of one language's words of one length
(core.solver.lexicon) once per process, on first use: house bots (D18) and the duel analysis
(D19) need it, and a tournament without house bots never asks for it. It withholds the
language's blocked words (`withheld`): the service never suggests or plays one, and never
draws one as a duel's secret (`unfit_secrets`), though a player may still guess one (R13).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from functools import cache

import wordlists
from core import blocked_words
from core.duel import Word
from core.solver.lexicon import Lexicon
from core.words import WordSource


@cache
def lexicon(language: str, length: int) -> Lexicon:
    accepted = wordlists.accepted_words(language, length)
    return Lexicon.from_lists(
        wordlists.secret_words(language, length), accepted, withheld(language, accepted)
    )


def withheld(language: str, words: Iterable[Word]) -> list[Word]:
    """The words of `words` the service never suggests or plays (D18, D19): blocked words of
    `language`'s list (R25's data, core.blocked_words.blocked_entry)."""
    from api.service import names  # the service package imports this module

    by_text = {"".join(w): w for w in words}
    blocked = blocked_words.blocked_entries(by_text, names.blocked(language), names.confusables())
    return [by_text[text] for text in blocked]


@cache
def unfit_secrets(language: str, length: int) -> tuple[Word, ...]:
    """The secret words of that length never drawn: those `withheld` (a blocked word revealed
    at a duel's end would be the service saying it). Found once per process and length, on
    the first draw."""
    return tuple(withheld(language, wordlists.secret_words(language, length)))


def draw(language: str, length: int, rng: random.Random, exclude: Collection[Word]) -> Word:
    """A duel's secret (R24, D13): never one used in the tournament, never a blocked word. The
    generator moves as before unless it lands on a blocked word, so draws stay as seeded."""
    unfit = unfit_secrets(language, length)
    return wordlists.draw_secret(language, length, rng, [*exclude, *unfit] if unfit else exclude)


@cache
def word_source(language: str) -> WordSource:
    """Core's view of one language's word lists (loaded lazily by `wordlists`)."""
    return WordSource(
        accepts=lambda word: wordlists.is_accepted(language, word),
        draw=lambda length, rng, exclude: draw(language, length, rng, exclude),
        lexicon=lambda length: lexicon(language, length),
    )
