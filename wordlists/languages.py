"""The 13 languages of R23: names, tiles, keyboards and how typed text maps to tiles (D12).

Rule of thumb (see README.md): a letter with its own key on the language's keyboard is its own
tile; accent variants without a key fold to their base letter. Romance accents fold even where a
national keyboard has a key for them (AZERTY é, Italian è), as players expect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

LENGTHS = (4, 5, 6)

# Every way a user may type the Uzbek modifier letter turned comma (ʻ) in oʻ and gʻ.
UZBEK_APOSTROPHES = ("ʻ", "‘", "’", "'", "`", "ʼ", "´")

_LATIN_LIGATURES: dict[str, tuple[str, ...]] = {"æ": ("a", "e"), "œ": ("o", "e")}


@dataclass(frozen=True)
class Language:
    code: str
    english_name: str
    native_name: str
    tiles: tuple[str, ...]
    keyboard: tuple[tuple[str, ...], ...]
    # Typed character sequences (already lower-cased) that stand for tiles, beyond the tiles
    # themselves and accent folding: ligatures, apostrophe variants, ё → е and the like.
    spellings: Mapping[str, tuple[str, ...]] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, hash=False, repr=False
    )

    @property
    def is_multi_character(self) -> bool:
        """True when some tile is more than one code point (Uzbek oʻ, gʻ, sh, ch)."""
        return any(len(tile) > 1 for tile in self.tiles)


def _row(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _language(
    code: str,
    english_name: str,
    native_name: str,
    alphabet: str,
    keyboard: tuple[str, ...],
    spellings: Mapping[str, tuple[str, ...]] | None = None,
) -> Language:
    return Language(
        code=code,
        english_name=english_name,
        native_name=native_name,
        tiles=_row(alphabet),
        keyboard=tuple(_row(row) for row in keyboard),
        spellings=MappingProxyType(dict(spellings or {})),
    )


_AZ = "a b c d e f g h i j k l m n o p q r s t u v w x y z"
_QWERTY = ("q w e r t y u i o p", "a s d f g h j k l", "z x c v b n m")
_RUSSIAN_ROWS = ("й ц у к е н г ш щ з х ъ", "ф ы в а п р о л д ж э", "я ч с м и т ь б ю")

_UZBEK_SPELLINGS: dict[str, tuple[str, ...]] = {"sh": ("sh",), "ch": ("ch",)}
for _mark in UZBEK_APOSTROPHES:
    _UZBEK_SPELLINGS["o" + _mark] = ("oʻ",)
    _UZBEK_SPELLINGS["g" + _mark] = ("gʻ",)

_ALL = (
    _language("en", "English", "English", _AZ, _QWERTY, _LATIN_LIGATURES),
    _language("id", "Indonesian", "Bahasa Indonesia", _AZ, _QWERTY, _LATIN_LIGATURES),
    _language(
        "de",
        "German",
        "Deutsch",
        _AZ + " ä ö ü ß",
        ("q w e r t z u i o p ü", "a s d f g h j k l ö ä", "y x c v b n m ß"),
        _LATIN_LIGATURES,
    ),
    _language(
        "es",
        "Spanish",
        "Español",
        "a b c d e f g h i j k l m n ñ o p q r s t u v w x y z",
        ("q w e r t y u i o p", "a s d f g h j k l ñ", "z x c v b n m"),
        _LATIN_LIGATURES,
    ),
    _language(
        "fr",
        "French",
        "Français",
        _AZ,
        ("a z e r t y u i o p", "q s d f g h j k l m", "w x c v b n"),
        _LATIN_LIGATURES,
    ),
    _language("it", "Italian", "Italiano", _AZ, _QWERTY, _LATIN_LIGATURES),
    _language("nl", "Dutch", "Nederlands", _AZ, _QWERTY, {**_LATIN_LIGATURES, "ĳ": ("i", "j")}),
    _language(
        "uz",
        "Uzbek",
        "Oʻzbekcha",
        "a b d e f g h i j k l m n o p q r s t u v x y z oʻ gʻ sh ch",
        ("q e r t y u i o p oʻ gʻ", "a s d f g h j k l", "z x v b n m sh ch"),
        _UZBEK_SPELLINGS,
    ),
    _language(
        "pl",
        "Polish",
        "Polski",
        "a ą b c ć d e ę f g h i j k l ł m n ń o ó p q r s ś t u v w x y z ź ż",
        (*_QWERTY, "ą ć ę ł ń ó ś ź ż"),
        _LATIN_LIGATURES,
    ),
    _language("pt", "Portuguese", "Português", _AZ, _QWERTY, _LATIN_LIGATURES),
    _language(
        "kk",
        "Kazakh",
        "Қазақша",
        "а ә б в г ғ д е ё ж з и й к қ л м н ң о ө п р с т у ұ ү ф х һ ц ч ш щ ъ ы і ь э ю я",
        ("ә і ң ғ ү ұ қ ө һ", _RUSSIAN_ROWS[0], _RUSSIAN_ROWS[1], "ё " + _RUSSIAN_ROWS[2]),
    ),
    _language(
        "ru",
        "Russian",
        "Русский",
        "а б в г д е ж з и й к л м н о п р с т у ф х ц ч ш щ ъ ы ь э ю я",
        _RUSSIAN_ROWS,
        {"ё": ("е",)},
    ),
    _language(
        "uk",
        "Ukrainian",
        "Українська",
        "а б в г ґ д е є ж з и і ї й к л м н о п р с т у ф х ц ч ш щ ь ю я",
        ("й ц у к е н г ш щ з х ї", "ф і в а п р о л д ж є", "ґ я ч с м и т ь б ю"),
    ),
)

LANGUAGES: Mapping[str, Language] = MappingProxyType({lang.code: lang for lang in _ALL})
