import subprocess
import sys

import wordlists
from wordlists import LANGUAGES, LENGTHS

R23_ORDER = ("en", "id", "de", "es", "fr", "it", "nl", "uz", "pl", "pt", "kk", "ru", "uk")


def test_the_13_languages_in_r23_order() -> None:
    assert tuple(LANGUAGES) == R23_ORDER
    assert LENGTHS == (4, 5, 6)


def test_names_tiles_and_keyboards() -> None:
    for code, lang in LANGUAGES.items():
        assert lang.code == code
        assert lang.english_name and lang.native_name
        assert len(set(lang.tiles)) == len(lang.tiles), code
        assert all(t == t.lower() and t.strip() == t for t in lang.tiles), code
        keys = [key for row in lang.keyboard for key in row]
        assert len(keys) == len(set(keys)), f"{code}: a key appears twice"
        assert set(keys) == set(lang.tiles), f"{code}: keyboard and tiles differ"


def test_language_is_hashable_and_frozen() -> None:
    lang = LANGUAGES["de"]
    assert hash(lang) == hash(LANGUAGES["de"])
    assert {lang: 1}[lang] == 1


def test_specific_tiles() -> None:
    assert "ñ" in LANGUAGES["es"].tiles
    assert {"ä", "ö", "ü", "ß"} <= set(LANGUAGES["de"].tiles)
    assert set("ąćęłńóśźż") <= set(LANGUAGES["pl"].tiles)
    assert "ё" not in LANGUAGES["ru"].tiles
    assert set("ґєії") <= set(LANGUAGES["uk"].tiles)
    assert set("әғқңөұүһі") <= set(LANGUAGES["kk"].tiles)
    assert {"oʻ", "gʻ", "sh", "ch"} <= set(LANGUAGES["uz"].tiles)
    assert not {"c", "w", "ng"} & set(LANGUAGES["uz"].tiles)
    for code in ("fr", "pt", "it", "en", "nl", "id"):
        assert len(LANGUAGES[code].tiles) == 26, code


def test_import_loads_no_word_data() -> None:
    code = (
        "import sys, wordlists, wordlists.store as s; "
        "assert not s._loaded, s._loaded; "
        "assert 'wordfreq' not in sys.modules; "
        "wordlists.normalise('de', 'Haus'); assert not s._loaded; "
        "wordlists.is_accepted('de', ('h','a','u','s')); assert list(s._loaded) == ['de']"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_public_interface() -> None:
    for name in (
        "LANGUAGES",
        "LENGTHS",
        "Language",
        "normalise",
        "is_accepted",
        "draw_secret",
        "display",
        "WordlistError",
        "UnknownLanguage",
        "InvalidCharacters",
    ):
        assert hasattr(wordlists, name), name
    assert issubclass(wordlists.UnknownLanguage, wordlists.WordlistError)
    assert issubclass(wordlists.InvalidCharacters, wordlists.WordlistError)
    assert issubclass(wordlists.WordlistError, ValueError)
