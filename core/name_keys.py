"""R25: when two nicknames look alike, and which characters show nothing.

Pure functions over the Unicode confusables table the caller passes in (source character →
prototype, as in UTS #39's confusables.txt), which the service loads from package data
(api/service/names.py). Blocked words are in core/blocked_words.py.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence

Confusables = Mapping[str, str]

# Separators a nickname may contain; two names that differ only by them look alike.
_SEPARATORS = str.maketrans("", "", " _-.")


def parse_confusables(lines: Iterable[str]) -> dict[str, str]:
    """UTS #39 confusables.txt (`source ; target ; type # comment`, hex code points) as a map
    from each source character to its prototype string."""
    table: dict[str, str] = {}
    for line in lines:
        data = line.split("#", 1)[0].strip().lstrip("\ufeff")
        if not data:
            continue
        source, target = (field.strip() for field in data.split(";")[:2])
        table[chr(int(source, 16))] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


def _visible(text: str) -> str:
    """Without default-ignorable characters (TR39 skeletons ignore them too)."""
    return "".join(c for c in text if not _ignorable(c))


def _ignorable(c: str) -> bool:
    code = ord(c)
    return (
        unicodedata.category(c) == "Cf"
        or code in _FILLERS
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x180B <= code <= 0x180F
    )


# Characters that occupy no visible glyph of their own although they are "letters" or marks:
# Hangul fillers, the halfwidth filler, the Khmer inherent vowels, the combining grapheme
# joiner, the Arabic tatweel (a stretch, not a letter), the Braille blank.
_FILLERS = frozenset(
    (0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x034F, 0x0640, 0x2800, 0x00AD)
)


def is_filler(c: str) -> bool:
    """A character a nickname may not contain: invisible, or a filler that shows nothing."""
    return _ignorable(c)


def skeleton(text: str, table: Confusables) -> str:
    """UTS #39 skeleton: NFD, each character to its prototype, NFD again (ignorables dropped)."""
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", _visible(text)))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str, table: Confusables) -> str:
    """Two nicknames with the same key look alike: the skeleton before and after case folding
    (so "I" stays confusable with "l", and "Bob" is "bob"), without separators."""
    folded = skeleton(skeleton(unicodedata.normalize("NFKC", name), table).casefold(), table)
    return folded.translate(_SEPARATORS)


def disambiguate(names: Sequence[str], table: Confusables) -> list[str]:
    """The names to show side by side: the first of each look-alike set as it is, each later
    one with the smallest number " 2", " 3", … that makes it look like no other name shown."""
    seen: set[str] = set()
    shown: list[str] = []
    for name in names:
        candidate, n = name, 1
        while name_key(candidate, table) in seen:
            n += 1
            candidate = f"{name} {n}"
        seen.add(name_key(candidate, table))
        shown.append(candidate)
    return shown
