"""Typed text → tiles (D12): case, Unicode forms, ligatures, digraph tiles and accent folding."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache

from wordlists.errors import EmptyText, InvalidCharacters, UnknownLanguage
from wordlists.languages import LANGUAGES, Language


def language(lang: str) -> Language:
    try:
        return LANGUAGES[lang]
    except (KeyError, TypeError):
        raise UnknownLanguage(lang) from None


@cache
def _longest_spelling(lang: str) -> int:
    spellings = [*LANGUAGES[lang].spellings, *LANGUAGES[lang].tiles]
    return max(len(s) for s in spellings)


@cache
def _fold(lang: str, char: str) -> str | None:
    """The tile an accented letter without its own key folds to, if any."""
    tiles = LANGUAGES[lang].tiles
    base = "".join(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
    return base if base != char and base in tiles else None


def normalise(lang: str, text: str) -> tuple[str, ...]:
    """The tiles spelled by `text` in `lang`, or `InvalidCharacters` naming what is not a letter."""
    spec = language(lang)
    typed = unicodedata.normalize("NFC", text.strip()).lower()
    if not typed:
        raise EmptyText(lang, text)
    tiles = set(spec.tiles)
    longest = _longest_spelling(lang)
    result: list[str] = []
    invalid: list[str] = []
    i = 0
    while i < len(typed):
        for size in range(min(longest, len(typed) - i), 1, -1):
            chunk = typed[i : i + size]
            if chunk in spec.spellings:
                result.extend(spec.spellings[chunk])
                break
            if chunk in tiles:
                result.append(chunk)
                break
        else:
            size = 1
            char = typed[i]
            if char in spec.spellings:
                result.extend(spec.spellings[char])
            elif char in tiles:
                result.append(char)
            elif (folded := _fold(lang, char)) is not None:
                result.append(folded)
            elif char not in invalid:
                invalid.append(char)
        i += size
    if invalid:
        raise InvalidCharacters(lang, text, tuple(invalid))
    return tuple(result)


def display(lang: str, tiles: Sequence[str]) -> str:
    """The word as text, e.g. to reveal a secret."""
    language(lang)
    return "".join(tiles)
