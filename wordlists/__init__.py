"""Word lists, alphabets and keyboards for the 13 languages of R23 (D12, D13).

A word is a tuple of tiles (`normalise` turns typed text into one). Importing this package reads
no word data: each language's lists load on first use of `is_accepted` or `draw_secret`.
"""

from __future__ import annotations

from wordlists.errors import EmptyText, InvalidCharacters, UnknownLanguage, WordlistError
from wordlists.languages import LANGUAGES, LENGTHS, Language
from wordlists.normalise import display, normalise
from wordlists.store import accepted_words, counts, draw_secret, is_accepted, secret_words

__all__ = [
    "LANGUAGES",
    "LENGTHS",
    "EmptyText",
    "InvalidCharacters",
    "Language",
    "UnknownLanguage",
    "WordlistError",
    "accepted_words",
    "counts",
    "display",
    "draw_secret",
    "is_accepted",
    "normalise",
    "secret_words",
]
