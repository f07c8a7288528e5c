"""Uzbek Cyrillic → official Latin script (1995 alphabet, as amended), tile by tile.

Debian's Uzbek dictionary is Cyrillic. Words that would need the tutuq belgisi ʼ (from ъ, or
between s and h, which would otherwise read as the tile sh) are left out of the lists, as are
words with letters that have no place in Uzbek.
"""

from __future__ import annotations

from itertools import pairwise

_VOWELS = set("аеёиоуэюяў")
_SIMPLE: dict[str, tuple[str, ...]] = {
    "а": ("a",),
    "б": ("b",),
    "в": ("v",),
    "г": ("g",),
    "д": ("d",),
    "ё": ("y", "o"),
    "ж": ("j",),
    "з": ("z",),
    "и": ("i",),
    "й": ("y",),
    "к": ("k",),
    "л": ("l",),
    "м": ("m",),
    "н": ("n",),
    "о": ("o",),
    "п": ("p",),
    "р": ("r",),
    "с": ("s",),
    "т": ("t",),
    "у": ("u",),
    "ф": ("f",),
    "х": ("x",),
    "ч": ("ch",),
    "ш": ("sh",),
    "ь": (),
    "э": ("e",),
    "ю": ("y", "u"),
    "я": ("y", "a"),
    "ў": ("oʻ",),
    "қ": ("q",),
    "ғ": ("gʻ",),
    "ҳ": ("h",),
}


def cyrillic_to_tiles(word: str) -> tuple[str, ...] | None:
    """The Latin tiles of a lower-case Cyrillic Uzbek word, or None if it is left out."""
    tiles: list[str] = []
    previous = ""
    for char in word:
        if char == "е":
            # ye at the start of a word and after a vowel or a sign, e elsewhere.
            tiles.extend(("y", "e") if previous in _VOWELS or previous in ("", "ь") else ("e",))
        elif char == "ц":
            # ts after a vowel (litsey), s elsewhere (sirk).
            tiles.extend(("t", "s") if previous in _VOWELS else ("s",))
        elif char in _SIMPLE:
            tiles.extend(_SIMPLE[char])
        else:
            return None  # ъ (tutuq belgisi), Russian щ/ы, digits, hyphens...
        previous = char
    if any(a == "s" and b == "h" for a, b in pairwise(tiles)):
        return None
    return tuple(tiles)
