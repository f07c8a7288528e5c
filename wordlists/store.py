"""Loading the committed word lists, lazily per language, and looking words up in them.

Each language's file in `data/` has one section per length and kind, written by the build:
`@5 secrets` then one word per line, then `@5 accepted` with the accepted words that are not
secrets. Sections are sorted by key, so a section is kept as a single fixed-width string and
searched by bisection: a few MB for the largest language instead of a set of small strs.
"""

from __future__ import annotations

import bisect
import random
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

from wordlists.codec import decode, encode, encode_text
from wordlists.errors import WordlistError
from wordlists.languages import LENGTHS
from wordlists.normalise import language

DATA_DIR = Path(__file__).parent / "data"
KINDS = ("secrets", "accepted")

# How often draw_secret picks again at random when it hits an excluded word before it lists the
# words that are left; past this the tournament has used a fair share of the list anyway.
_RANDOM_TRIES = 16


class FixedWidthWords(Sequence[str]):
    """A sorted list of same-length keys packed into one string."""

    __slots__ = ("_packed", "_width")

    def __init__(self, packed: str, width: int) -> None:
        if len(packed) % width:
            raise WordlistError(f"corrupt section: {len(packed)} code points for width {width}")
        self._packed = packed
        self._width = width

    def __len__(self) -> int:
        return len(self._packed) // self._width

    def __getitem__(self, index: int) -> str:  # type: ignore[override]
        if index < 0:
            index += len(self)
        start = index * self._width
        if not 0 <= start < len(self._packed):
            raise IndexError(index)
        return self._packed[start : start + self._width]

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str) or len(key) != self._width:
            return False
        i = bisect.bisect_left(self, key)
        return i < len(self) and self[i] == key


@dataclass(frozen=True)
class LoadedLanguage:
    code: str
    secrets: dict[int, FixedWidthWords]
    # Accepted words that are not secrets; `is_accepted` checks both.
    extra_accepted: dict[int, FixedWidthWords]

    def count(self, length: int, kind: str) -> int:
        secrets = len(self.secrets[length])
        return secrets if kind == "secrets" else secrets + len(self.extra_accepted[length])


def parse(lang: str, text: str) -> LoadedLanguage:
    sections: dict[tuple[int, str], FixedWidthWords] = {}
    for part in text.split("@")[1:]:
        header, _, body = part.partition("\n")
        length_text, kind = header.split()
        length = int(length_text)
        sections[length, kind] = FixedWidthWords(encode_text(lang, body).replace("\n", ""), length)
    missing = [(n, k) for n in LENGTHS for k in KINDS if (n, k) not in sections]
    if missing:
        raise WordlistError(f"{lang}: data file lacks sections {missing}")
    return LoadedLanguage(
        code=lang,
        secrets={n: sections[n, "secrets"] for n in LENGTHS},
        extra_accepted={n: sections[n, "accepted"] for n in LENGTHS},
    )


_loaded: dict[str, LoadedLanguage] = {}
_lock = threading.Lock()


def load(lang: str) -> LoadedLanguage:
    """The language's word lists, read from disk on first use."""
    found = _loaded.get(lang)
    if found is not None:
        return found
    language(lang)
    with _lock:
        if lang not in _loaded:
            text = (DATA_DIR / f"{lang}.txt").read_text(encoding="utf-8")
            _loaded[lang] = parse(lang, text)
        return _loaded[lang]


def unload_all() -> None:
    """Forget loaded languages (for benchmarks and tests)."""
    with _lock:
        _loaded.clear()


def is_accepted(lang: str, tiles: Sequence[str]) -> bool:
    """Whether the word is a valid guess in `lang`. Tiles are as `normalise` returns them."""
    language(lang)
    if len(tiles) not in LENGTHS:
        return False
    key = encode(lang, tiles)
    if key is None:
        return False
    data = load(lang)
    return key in data.secrets[len(tiles)] or key in data.extra_accepted[len(tiles)]


def secret_words(lang: str, length: int) -> tuple[tuple[str, ...], ...]:
    """Every secret word of that length, in a stable order."""
    return tuple(decode(lang, key) for key in _secrets(lang, length))


def accepted_words(lang: str, length: int) -> tuple[tuple[str, ...], ...]:
    """Every accepted word of that length (secrets included), in a stable order."""
    data = load(lang)
    keys = sorted([*data.secrets[length], *data.extra_accepted[length]])
    return tuple(decode(lang, key) for key in keys)


def _secrets(lang: str, length: int) -> FixedWidthWords:
    if length not in LENGTHS:
        raise WordlistError(f"word length must be one of {LENGTHS}, not {length!r}")
    return load(lang).secrets[length]


def draw_secret(
    lang: str,
    length: int,
    rng: random.Random,
    exclude: Collection[tuple[str, ...]] = (),
) -> tuple[str, ...]:
    """A secret word of `length` tiles not in `exclude` (D13), deterministic for rng's state."""
    words = _secrets(lang, length)
    excluded = {tuple(word) for word in exclude}
    for _ in range(_RANDOM_TRIES):
        word = decode(lang, words[rng.randrange(len(words))])
        if word not in excluded:
            return word
    left = [key for key in words if decode(lang, key) not in excluded]
    if not left:
        raise WordlistError(f"{lang}: every {length}-tile secret word is excluded")
    return decode(lang, rng.choice(left))


def counts(lang: str) -> dict[int, dict[str, int]]:
    data = load(lang)
    return {n: {kind: data.count(n, kind) for kind in KINDS} for n in LENGTHS}
