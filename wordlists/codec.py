"""One code point per tile, so a word of n tiles is a str of length n (a compact lookup key).

Single-character tiles stand for themselves; longer tiles (Uzbek oʻ, gʻ, sh, ch) get code points
from the Private Use Area. The data files hold words as display text; `encode_text` turns a whole
file section into keys at once, which is correct because the build never writes a word in which a
multi-character tile's letters stand as separate tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from wordlists.languages import LANGUAGES

_PRIVATE_USE = 0xE000


@cache
def _codes(lang: str) -> dict[str, str]:
    tiles = LANGUAGES[lang].tiles
    multi = [t for t in tiles if len(t) > 1]
    codes = {t: t for t in tiles if len(t) == 1}
    codes.update({t: chr(_PRIVATE_USE + i) for i, t in enumerate(multi)})
    return codes


@cache
def _decodes(lang: str) -> dict[str, str]:
    return {code: tile for tile, code in _codes(lang).items()}


def encode(lang: str, tiles: Sequence[str]) -> str | None:
    """The key of a word, or None if some tile is not one of the language's tiles."""
    codes = _codes(lang)
    try:
        return "".join(codes[t] for t in tiles)
    except (KeyError, TypeError):
        return None


def decode(lang: str, key: str) -> tuple[str, ...]:
    decodes = _decodes(lang)
    return tuple(decodes[c] for c in key)


def encode_text(lang: str, text: str) -> str:
    """Keys for display text in which every multi-character tile's letters form that tile."""
    for tile, code in _codes(lang).items():
        if len(tile) > 1:
            text = text.replace(tile, code)
    return text
