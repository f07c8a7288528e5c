import pytest

from wordlists import (
    LANGUAGES,
    EmptyText,
    InvalidCharacters,
    UnknownLanguage,
    WordlistError,
    display,
    normalise,
)


def tiles(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@pytest.mark.parametrize(
    ("lang", "typed", "expected"),
    [
        # Case never matters; whitespace around the word is dropped.
        ("en", "  Crane\n", "c r a n e"),
        ("en", "CAFÉ", "c a f e"),
        ("en", "naïve", "n a i v e"),
        ("id", "Rumah", "r u m a h"),
        # Spanish: ñ is a letter; á é í ó ú ü fold.
        ("es", "NIÑO", "n i ñ o"),
        ("es", "árbol", "a r b o l"),
        ("es", "pingüino", "p i n g u i n o"),
        ("es", "canción", "c a n c i o n"),
        ("es", "nin\u0303o", "n i ñ o"),  # decomposed ñ
        # French and Portuguese: accents and ç fold; œ → oe, æ → ae.
        ("fr", "Garçon", "g a r c o n"),
        ("fr", "élève", "e l e v e"),
        ("fr", "cœur", "c o e u r"),
        ("fr", "Œuvre", "o e u v r e"),
        ("fr", "ex-æquo".replace("-", ""), "e x a e q u o"),
        ("pt", "coração", "c o r a c a o"),
        ("pt", "avô", "a v o"),
        ("it", "città", "c i t t a"),
        # German: ä ö ü are letters; ß is a letter (it has a key), capital ẞ lowers to it.
        ("de", "Mädchen", "m ä d c h e n"),
        ("de", "Straße", "s t r a ß e"),
        ("de", "STRAẞE", "s t r a ß e"),
        ("de", "strasse", "s t r a s s e"),
        ("de", "STRASSE", "s t r a s s e"),
        ("de", "Café", "c a f e"),
        # Dutch: ij is two tiles, the ligature too.
        ("nl", "IJs", "i j s"),
        ("nl", "\u0133s", "i j s"),
        ("nl", "ruïne", "r u i n e"),
        # Polish letters are tiles.
        ("pl", "Źdźbło", "ź d ź b ł o"),
        ("pl", "ąćęłńóśźż", "ą ć ę ł ń ó ś ź ż"),
        # Russian folds ё to е.
        ("ru", "Ёлка", "е л к а"),
        ("ru", "съезд", "с ъ е з д"),
        ("uk", "ёж", "е ж"),  # no ё in Ukrainian: it folds like any accent variant
        # Ukrainian letters.
        ("uk", "Ґанок", "ґ а н о к"),
        ("uk", "їжак", "ї ж а к"),
        ("uk", "єнот", "є н о т"),
        ("uk", "ірис", "і р и с"),
        # Kazakh letters.
        ("kk", "Әке", "ә к е"),
        ("kk", "ғұмыр", "ғ ұ м ы р"),
        ("kk", "қөңүһі", "қ ө ң ү һ і"),
        # Uzbek: oʻ and gʻ are one tile whatever apostrophe is typed; sh and ch are one tile;
        # ng is two.
        ("uz", "Oʻzbek", "oʻ z b e k"),
        ("uz", "o‘zbek", "oʻ z b e k"),
        ("uz", "o’zbek", "oʻ z b e k"),
        ("uz", "o'zbek", "oʻ z b e k"),
        ("uz", "o`zbek", "oʻ z b e k"),
        ("uz", "Gʻisht", "gʻ i sh t"),
        ("uz", "tog'", "t o gʻ"),
        ("uz", "choy", "ch o y"),
        ("uz", "SHAHAR", "sh a h a r"),
        ("uz", "tong", "t o n g"),
    ],
)
def test_normalise(lang: str, typed: str, expected: str) -> None:
    assert normalise(lang, typed) == tiles(expected)


@pytest.mark.parametrize(
    ("lang", "typed", "bad"),
    [
        ("en", "ice cream", (" ",)),
        ("en", "co-op", ("-",)),
        ("en", "r2d2", ("2",)),
        ("en", "кот", ("к", "о", "т")),
        ("ru", "cat", ("c", "a", "t")),
        ("uk", "м'ясо", ("'",)),
        ("uk", "эра", ("э",)),
        ("uk", "мыло", ("ы",)),
        ("ru", "їжак", ("ї",)),
        ("uz", "cat", ("c",)),
        ("uz", "sa'at", ("'",)),
        ("uz", "wow", ("w",)),
        ("es", "año1", ("1",)),
    ],
)
def test_invalid_characters_are_named(lang: str, typed: str, bad: tuple[str, ...]) -> None:
    with pytest.raises(InvalidCharacters) as caught:
        normalise(lang, typed)
    assert caught.value.characters == bad
    assert caught.value.lang == lang
    assert caught.value.text == typed
    assert isinstance(caught.value, WordlistError)


def test_spanish_c_cedilla_folds() -> None:
    assert normalise("es", "ça") == ("c", "a")


@pytest.mark.parametrize("typed", ["", "   ", "\t\n"])
def test_empty_text(typed: str) -> None:
    with pytest.raises(EmptyText) as caught:
        normalise("en", typed)
    assert isinstance(caught.value, InvalidCharacters)


@pytest.mark.parametrize("code", ["xx", "EN", "", "english"])
def test_unknown_language(code: str) -> None:
    with pytest.raises(UnknownLanguage) as caught:
        normalise(code, "word")
    assert caught.value.lang == code


def test_every_tile_normalises_to_itself() -> None:
    for code, lang in LANGUAGES.items():
        for tile in lang.tiles:
            assert normalise(code, tile) == (tile,), (code, tile)
            if len(tile.upper()) == len(tile):  # not ß, whose upper case is SS
                assert normalise(code, tile.upper()) == (tile,), (code, tile)


def test_display_joins_tiles() -> None:
    assert display("uz", ("oʻ", "z", "b", "e", "k")) == "oʻzbek"
    assert display("de", normalise("de", "Straße")) == "straße"
    with pytest.raises(UnknownLanguage):
        display("xx", ("a",))
