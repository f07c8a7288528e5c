"""R25: when two nicknames look alike, and which words a nickname may not contain.

Pure functions over data the caller passes in: the Unicode confusables table (source character
→ prototype, as in UTS #39's confusables.txt) and the blocked-words lists (see `BlockedWords`).
The service loads both from package data (api/service/names.py).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Confusables = Mapping[str, str]

# Separators a nickname may contain; two names that differ only by them look alike.
_SEPARATORS = str.maketrans("", "", " _-.")
# Digits written for letters, for matching blocked words only ("sh1t", "f4g").
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b"})


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


# ---------------------------------------------------------------------------- blocked words


@dataclass(frozen=True, slots=True)
class BlockedWords:
    """Words a nickname may not contain, as match keys (see `blocked_words`).

    `whole`: a word of the name is exactly one of these; `start`/`end`: a word of the name
    starts/ends with one; `anywhere`: the name, separators removed, contains one.
    """

    whole: frozenset[str] = frozenset()
    start: frozenset[str] = frozenset()
    end: frozenset[str] = frozenset()
    anywhere: frozenset[str] = frozenset()

    def __or__(self, other: BlockedWords) -> BlockedWords:
        return BlockedWords(
            self.whole | other.whole,
            self.start | other.start,
            self.end | other.end,
            self.anywhere | other.anywhere,
        )


NO_BLOCKED_WORDS = BlockedWords()


def match_keys(text: str, table: Confusables) -> set[str]:
    """Blocked-word match keys: leetspeak digits read as letters, no separators, no combining
    marks (an accent does not hide a word), through the confusables both before case folding
    (a capital I is an l) and after it (Cyrillic capitals fold to the lower-case letters the
    table maps)."""
    text = unicodedata.normalize("NFKC", text.translate(_LEET))
    keys = {
        name_key(text, table),
        skeleton(skeleton(text.casefold(), table).casefold(), table).translate(_SEPARATORS),
    }
    return {"".join(c for c in key if not unicodedata.combining(c)) for key in keys}


def blocked_words(lines: Iterable[str], table: Confusables) -> BlockedWords:
    """A list in the data format: one entry a line, `#` starts a comment. `word` matches a
    whole word of a nickname, `word*` the start of a word, `*word` its end, `*word*` anywhere
    (even across words: only for words that no innocent word contains)."""
    groups: dict[str, set[str]] = {"whole": set(), "start": set(), "end": set(), "anywhere": set()}
    for line in lines:
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        lead, trail = entry.startswith("*"), entry.endswith("*")
        kind = "anywhere" if lead and trail else "end" if lead else "start" if trail else "whole"
        groups[kind].update(key for key in match_keys(entry.strip("*"), table) if key)
    return BlockedWords(**{kind: frozenset(keys) for kind, keys in groups.items()})


_SEPARATOR_RUN = re.compile(r"[ _.\-]+")


def words_of(name: str) -> list[str]:
    """The words of a nickname as a reader splits them: at separators, and where a lower-case
    letter meets a capital ("BraveOtter" is "Brave", "Otter")."""
    words: list[str] = []
    for chunk in _SEPARATOR_RUN.split(unicodedata.normalize("NFKC", name)):
        start = 0
        for i in range(1, len(chunk)):
            if chunk[i - 1].islower() and chunk[i].isupper():
                words.append(chunk[start:i])
                start = i
        if chunk[start:]:
            words.append(chunk[start:])
    return words


def blocked_word(name: str, blocked: BlockedWords, table: Confusables) -> str | None:
    """The blocked word key that `name` contains, or None."""
    for whole in match_keys(name, table):
        for word in blocked.anywhere:
            if word in whole:
                return word
    for part in words_of(name):
        for key in match_keys(part, table):
            if key in blocked.whole:
                return key
            for word in blocked.start:
                if key.startswith(word):
                    return word
            for word in blocked.end:
                if key.endswith(word):
                    return word
    return None
