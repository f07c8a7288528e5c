"""R25: the words a nickname may not contain, matched however they are written.

The lists are data (api/service/data/blocked_names/, one file per language; every list applies
to every nickname, since a name is shown to players of every language). Both an entry and a
nickname are read as keys (core/name_scripts.py): in Latin letters (accents, case, leetspeak,
look-alikes of other scripts and Cyrillic letters read away) and, for a word with a Cyrillic
letter, in Cyrillic (Latin look-alikes read as Cyrillic, Ukrainian, Kazakh and Uzbek letters
folded). An entry in Cyrillic also blocks its Latin spellings ("хуй" → hui, huj, xuy…), as
whole words only: short Cyrillic roots start many innocent Latin names (хуе* is Huelva, Huerta,
Hue). A Latin spelling worth matching more widely is an entry of its own ("blyat*").

The same lists name the dictionary words the service never suggests or plays in its own name
(D18, D19: `blocked_entry`, `blocked_entries`), read as plainly as entries are.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from core.name_scripts import (
    cyrillic_entry_key,
    cyrillic_keys,
    is_cyrillic,
    latin_keys,
    latin_spellings,
)

Confusables = Mapping[str, str]


@dataclass(frozen=True, slots=True)
class BlockedWords:
    """Entries as match keys. `whole`: a word of the name is one of these; `start`/`end`: a
    word starts/ends with one; `anywhere`: the name, separators removed, contains one."""

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

    def __len__(self) -> int:
        return len(self.whole | self.start | self.end | self.anywhere)


NO_BLOCKED_WORDS = BlockedWords()
SCRIPT_ONLY = "="  # after an entry: no Latin spellings of a Cyrillic entry (мразь: Mraz)


def entry_keys(entry: str, table: Confusables) -> set[str]:
    """An entry's keys in its own script."""
    if any(is_cyrillic(c) for c in entry):
        return {cyrillic_entry_key(entry)} - {""}
    return latin_keys(entry, table, loose=False)


def blocked_words(lines: Iterable[str], table: Confusables) -> BlockedWords:
    """A list in the data format: one entry a line, `#` starts a comment. `word` matches a
    whole word of a nickname, `word*` the start of a word, `*word` its end, `*word*` anywhere
    (even across words: only for words that no innocent word contains). A Cyrillic entry also
    matches its Latin spellings as whole words, unless `=` follows it."""
    groups: dict[str, set[str]] = {"whole": set(), "start": set(), "end": set(), "anywhere": set()}
    for line in lines:
        entry = line.split("#", 1)[0].strip()
        script_only = entry.endswith(SCRIPT_ONLY)
        entry = entry.removesuffix(SCRIPT_ONLY).strip()
        if not entry:
            continue
        lead, trail = entry.startswith("*"), entry.endswith("*")
        kind = "anywhere" if lead and trail else "end" if lead else "start" if trail else "whole"
        word = entry.strip("*")
        groups[kind] |= entry_keys(word, table)
        if not script_only and any(is_cyrillic(c) for c in word):
            groups["whole"] |= latin_spellings(word)
    return BlockedWords(**{kind: frozenset(keys) for kind, keys in groups.items()})


# ---------------------------------------------------------------------------- dictionary words


def blocked_entry(word: str, blocked: BlockedWords, table: Confusables) -> str | None:
    """The blocked entry's key that one dictionary word is, or None: the word read as an entry is
    (its own script, no leetspeak or look-alike readings: a dictionary word is spelt plainly),
    matched as the entries say (`word`, `word*`, `*word`, `*word*`), so that "fucked" and "whores"
    match, "dickens" and "cockle" do not. Stricter than a nickname's `blocked_word`, whose
    look-alike readings would refuse ordinary words of other scripts (Russian жора as "zhopa")."""
    sizes = _sizes(blocked)
    for key in entry_keys(word, table):
        found = _entry_in(key, blocked, sizes)
        if found is not None:
            return found
    return None


def blocked_entries(words: Iterable[str], blocked: BlockedWords, table: Confusables) -> list[str]:
    """The words of a word list that `blocked_entry` blocks, fast enough for 60,000 words: a
    word of letters alone (no combining marks) is read letter by letter, each letter once."""
    letters: dict[str, _Letter | None] = {}
    sizes = _sizes(blocked)
    out = []
    for word in words:
        if word.isascii() and word.isalpha() and word.islower():
            keys: Iterable[str] = (word,)
        else:
            key = _letter_key(word, table, letters)
            keys = entry_keys(word, table) if key is None else (key,)
        if any(_entry_in(k, blocked, sizes) is not None for k in keys):
            out.append(word)
    return out


_Letter = tuple[bool, str | None, str]  # Cyrillic?, its Latin key (None: not one), Cyrillic key


def _letter(c: str, table: Confusables) -> _Letter | None:
    """A letter's keys in either script, or None where a word must be read whole."""
    if c == "I" or unicodedata.combining(c):  # a capital I may read "l"; marks combine
        return None
    latin = latin_keys(c, table, loose=False) or {""}
    return is_cyrillic(c), next(iter(latin)) if len(latin) == 1 else None, cyrillic_entry_key(c)


def _letter_key(word: str, table: Confusables, letters: dict[str, _Letter | None]) -> str | None:
    """`word`'s one entry key (`entry_keys`), read letter by letter; None: read it whole."""
    found = []
    for c in word:
        if c not in letters:
            letters[c] = _letter(c, table)
        got = letters[c]
        if got is None:
            return None
        found.append(got)
    if any(cyrillic for cyrillic, _, _ in found):
        return "".join(k for _, _, k in found) or None
    parts = [k for _, k, _ in found]
    return None if None in parts else "".join(p for p in parts if p is not None) or None


Sizes = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _sizes(blocked: BlockedWords) -> Sizes:
    """The lengths of the `start`, `end` and `anywhere` keys: the only slices worth looking up."""

    def lengths(keys: frozenset[str]) -> tuple[int, ...]:
        return tuple(sorted({len(k) for k in keys}))

    return lengths(blocked.start), lengths(blocked.end), lengths(blocked.anywhere)


def _entry_in(key: str, blocked: BlockedWords, sizes: Sizes) -> str | None:
    if key in blocked.whole:
        return key
    starts, ends, anywhere = sizes
    for n in starts:
        if key[:n] in blocked.start:
            return key[:n]
    for n in ends:
        if n <= len(key) and key[-n:] in blocked.end:
            return key[-n:]
    for n in anywhere:
        for i in range(len(key) - n + 1):
            if key[i : i + n] in blocked.anywhere:
                return key[i : i + n]
    return None


# ---------------------------------------------------------------------------- a nickname's parts

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


def parts_of(name: str) -> list[str]:
    """What a reader takes for words: each word, each run of spaced-out letters read as one
    ("F U C K", "х у й"), and the whole name without separators ("SuKa")."""
    words = words_of(name)
    parts = list(words)
    run: list[str] = []
    for word in [*words, ""]:
        if len(word) == 1:
            run.append(word)
            continue
        if len(run) > 1:
            parts.append("".join(run))
        run = []
    if len(words) > 1:
        parts.append("".join(words))
    return parts


def _keys(part: str, table: Confusables) -> set[str]:
    return latin_keys(part, table) | cyrillic_keys(part)


def blocked_word(name: str, blocked: BlockedWords, table: Confusables) -> str | None:
    """The blocked entry's key that `name` contains, or None.

    Each key of a part is looked up whole, by each of its prefixes and suffixes, and (for the
    whole name) by each of its substrings: a few hundred set look-ups, whatever the lists' size.
    """
    if blocked.anywhere:
        lengths = sorted({len(word) for word in blocked.anywhere})
        for key in _keys("".join(words_of(name)), table):
            for size in lengths:
                for i in range(len(key) - size + 1):
                    if key[i : i + size] in blocked.anywhere:
                        return key[i : i + size]
    for part in parts_of(name):
        for key in _keys(part, table):
            if key in blocked.whole:
                return key
            for i in range(1, len(key) + 1):
                if key[:i] in blocked.start:
                    return key[:i]
                if key[-i:] in blocked.end:
                    return key[-i:]
    return None
