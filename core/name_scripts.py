"""R25: the letters of a nickname read in Latin and in Cyrillic, for the blocked-words match.

One word is written many ways: Russian mat in Latin letters ("hui", "blyat", "cyka"), English
words with Cyrillic look-alikes ("fuск"), Cyrillic words with Latin ones ("пiзда"), leetspeak
digits ("sh1t", "п1зда"), stretched letters ("fuuuck"), "ph" for "f" and "v" for "u" ("phuck",
"fvck"). Two readings cover them, each a small set of keys:

- **Latin** (`latin_keys`): case folded, accents dropped (ñ kept: coño is not cono), leetspeak
  digits read as letters, other scripts' look-alikes through the UTS #39 table, and a Cyrillic
  letter read both as it sounds (the usual transliteration) and as it looks (с → c, к → k).
- **Cyrillic** (`cyrillic_keys`, only for a word with a Cyrillic letter): the Cyrillic letters
  folded across Russian, Ukrainian, Kazakh and Uzbek spellings (і ї й ы → и, є ё э → е, қ → к…),
  Latin letters read as the Cyrillic ones they look like (p → р, i → и), digits as Cyrillic
  leetspeak (3 → з).

A blocked entry written in Cyrillic is also matched by its Latin spellings (`latin_spellings`:
every common transliteration and the look-alike letters, "хуй" → hui, huj, huy, khui, xuy…).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping

Confusables = Mapping[str, str]

# Characters dropped from every key: separators, apostrophes (Uzbek oʻ, gʻ, the English ').
_DROPPED = frozenset(" _-.'\u2019\u02bb\u02bc\u02bd\u02b9\u0060\u00b4")
LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g"}
# Latin letters whose accent does not come off in a key (ñ is a letter of its own in Spanish),
# and letters that are one or two plain letters without a combining mark.
_KEEP = frozenset("ñ")
_LATIN_PLAIN = {
    "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe",
    "þ": "th", "ŋ": "n", "ĸ": "k", "ſ": "s", "ƒ": "f", "ɡ": "g", "ð": "d",
    # prototypes of the UTS #39 table that are small capitals (Greek τ is ᴛ there)
    "ᴛ": "t", "ʙ": "b", "ʜ": "h", "ᴋ": "k", "ʍ": "m", "ᴍ": "m",
}  # fmt: skip

# ---------------------------------------------------------------------------- Cyrillic → Latin

# How a Cyrillic letter is usually written in Latin letters: the first spelling is the one a
# nickname's Cyrillic letter is read as; all of them spell a blocked entry (`latin_spellings`).
SPELLINGS: dict[str, tuple[str, ...]] = {
    "а": ("a",), "б": ("b",), "в": ("v", "w"), "г": ("g", "h"), "д": ("d",),
    "е": ("e", "ye", "je"), "ё": ("yo", "e", "jo", "io"), "ж": ("zh", "j", "z"), "з": ("z",),
    "и": ("i", "y"), "й": ("y", "i", "j"), "к": ("k",), "л": ("l",), "м": ("m",), "н": ("n",),
    "о": ("o",), "п": ("p",), "р": ("r",), "с": ("s",), "т": ("t",), "у": ("u",), "ф": ("f",),
    "х": ("h", "kh", "x"), "ц": ("ts", "c", "tz"), "ч": ("ch",), "ш": ("sh",),
    "щ": ("sch", "shch", "sh"), "ъ": ("",), "ы": ("y", "i"), "ь": ("",), "э": ("e",),
    "ю": ("yu", "ju", "iu"), "я": ("ya", "ja", "ia"),
    # Ukrainian
    "і": ("i",), "ї": ("yi", "i", "ji"), "є": ("ye", "e", "je"), "ґ": ("g",),
    # Kazakh and Uzbek
    "ә": ("a", "ae", "e"), "ғ": ("g", "gh"), "қ": ("q", "k"), "ң": ("ng", "n"), "ө": ("o", "oe"),
    "ұ": ("u",), "ү": ("u", "ue"), "һ": ("h",), "ў": ("o", "u"), "ҳ": ("h",),
    # Serbian and Macedonian letters that Cyrillic look-alike tricks use
    "ј": ("j",), "ѕ": ("s",),
}  # fmt: skip
# Cyrillic letters that look like a Latin one (what a mixed-script trick relies on).
LOOKS_LATIN = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "һ": "h", "ԁ": "d", "ԛ": "q",
    "ԝ": "w", "ү": "y",
}  # fmt: skip

# ---------------------------------------------------------------------------- → Cyrillic

# One Cyrillic spelling across the languages: Ukrainian і ї and й ы read as и, є ё э as е…
_CYRILLIC_FOLD = str.maketrans(
    {
        "ё": "е", "є": "е", "э": "е", "і": "и", "ї": "и", "й": "и", "ы": "и", "ъ": "ь",
        "ґ": "г", "қ": "к", "ғ": "г", "ң": "н", "ү": "у", "ұ": "у", "ө": "о", "ә": "а",
        "һ": "х", "ў": "у", "ҳ": "х", "ј": "и", "ѕ": "з",
    }
)  # fmt: skip
# A Latin letter in a Cyrillic word, read as the Cyrillic letters it looks or sounds like.
_LATIN_AS_CYRILLIC: dict[str, tuple[str, ...]] = {
    "a": ("а",), "b": ("в", "б", "ь"), "c": ("с",), "d": ("д",), "e": ("е",), "f": ("ф",),
    "g": ("г",), "h": ("н", "х"), "i": ("и",), "j": ("и",), "k": ("к",), "l": ("л",),
    "m": ("м",), "n": ("п", "н"), "o": ("о",), "p": ("р", "п"), "q": ("к",), "r": ("г", "р"),
    "s": ("с",), "t": ("т",), "u": ("и", "у"), "v": ("в",), "w": ("ш",), "x": ("х",),
    "y": ("у",), "z": ("з",),
}  # fmt: skip
_CYRILLIC_LEET = {"0": "о", "1": "и", "3": "з", "4": "ч", "6": "б"}
MAX_VARIANTS = 64  # readings of one word (ambiguous letters multiply them)


def is_cyrillic(c: str) -> bool:
    return "\u0400" <= c <= "\u052f" or "\u1c80" <= c <= "\u1c8f" or "\ua640" <= c <= "\ua69f"


def _base(text: str) -> str:
    """NFKC, case folded, without separators, apostrophes and default-ignorable characters."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(
        c for c in folded if c not in _DROPPED and unicodedata.category(c) not in ("Cf", "Mn")
    )


def _plain_latin(c: str, table: Confusables) -> str:
    """A character that is not Cyrillic, as plain Latin letters where it is (or looks like)
    one: accents dropped, look-alikes of other scripts through the UTS #39 table."""
    if c in _KEEP:
        return c
    if c in _LATIN_PLAIN:
        return _LATIN_PLAIN[c]
    mapped = c if "a" <= c <= "z" or c.isdigit() else table.get(c, c)
    out = []
    for d in unicodedata.normalize("NFD", mapped):
        if unicodedata.combining(d):
            continue
        d = d.casefold()
        out.append(_LATIN_PLAIN.get(d, d))
    return "".join(out)


def _stretched(key: str) -> set[str]:
    """A key with runs of three or more of a letter read as one and as two ("fuuuck")."""
    if not re.search(r"(.)\1\1", key):
        return set()
    return {re.sub(r"(.)\1{2,}", r"\1", key), re.sub(r"(.)\1{2,}", r"\1\1", key)}


_CONSONANT_V = re.compile(r"(?<=[bcdfghjklmnpqrstvwxz])v(?=[bcdfghjklmnpqrstvwxz])")


def _loose(key: str) -> set[str]:
    """Leetspeak spellings read back: "ph" as "f", a "v" between consonants as "u" (fvck),
    stretched letters."""
    keys = {key}
    if "ph" in key:
        keys.add(key.replace("ph", "f"))
    for k in list(keys):
        if _CONSONANT_V.search(k):
            keys.add(_CONSONANT_V.sub("u", k))
    for k in list(keys):
        keys |= _stretched(k)
    return keys


def latin_keys(word: str, table: Confusables, loose: bool = True) -> set[str]:
    """The word's Latin readings (see the module's docstring); `loose` adds the leetspeak
    ones (a name's keys: an entry's are its plain spellings)."""
    raw = unicodedata.normalize("NFKC", word)
    variants = [raw]
    # A capital I is a small l in many fonts ("sIut"), but not where a word starts.
    if re.search(r"(?<=[a-z])I", raw):
        variants.append(re.sub(r"(?<=[a-z])I", "l", raw))
    keys: set[str] = set()
    for variant in variants:
        text = _base(variant)
        sounds, looks = [], []
        for c in text:
            if c in LEET:
                sounds.append(LEET[c])
                looks.append(LEET[c])
            elif is_cyrillic(c):
                spelled = SPELLINGS.get(c, (c,))[0]
                sounds.append(spelled)
                looks.append(LOOKS_LATIN.get(c, spelled))
            else:
                plain = _plain_latin(c, table)
                sounds.append(plain)
                looks.append(plain)
        keys.update(("".join(sounds), "".join(looks)))
    keys.discard("")
    if loose:
        keys = {k for key in keys for k in _loose(key)}
    return keys


def cyrillic_keys(word: str) -> set[str]:
    """The word read in Cyrillic, when it has a Cyrillic letter (else none): Cyrillic letters
    folded, Latin ones as the Cyrillic letters they look or sound like, leetspeak digits."""
    text = _base(word)
    if not any(is_cyrillic(c) for c in text):
        return set()
    options: list[tuple[str, ...]] = []
    for c in text:
        if is_cyrillic(c):
            options.append((c.translate(_CYRILLIC_FOLD),))
        elif c in _CYRILLIC_LEET:
            options.append((_CYRILLIC_LEET[c],))
        else:
            plain = "".join(unicodedata.normalize("NFD", c)[:1])
            options.append(_LATIN_AS_CYRILLIC.get(plain, (plain,)))
    keys = {"".join(p) for p in itertools.islice(itertools.product(*options), MAX_VARIANTS)}
    return {k for key in keys for k in (key, *_stretched(key))}


def cyrillic_entry_key(entry: str) -> str:
    """A blocked entry written in Cyrillic, folded the way `cyrillic_keys` reads a name."""
    return _base(entry).translate(_CYRILLIC_FOLD)


def latin_spellings(entry: str, limit: int = 256) -> set[str]:
    """The Latin spellings of a Cyrillic entry: each letter as it sounds (every usual
    transliteration) or as it looks, at most `limit` of them."""
    options: list[Iterable[str]] = []
    for c in _base(entry):
        if c in LEET:
            options.append((LEET[c],))
            continue
        spelled = SPELLINGS.get(c, (c,))
        looks = LOOKS_LATIN.get(c)
        options.append(spelled + ((looks,) if looks and looks not in spelled else ()))
    return {"".join(p) for p in itertools.islice(itertools.product(*options), limit)} - {""}
