"""The interface's catalogues (api/web/static/i18n/, D17) as the tests read them, and CLDR's
plural tables for the whole numbers the game shows (0–1000), which tests/web/test_languages.py
checks against chromium's own Intl. A library, not a test module.
"""

from __future__ import annotations

import json
import re
from typing import Any

import wordlists
from api.web import STATIC

I18N = STATIC / "i18n"
CODES = tuple(wordlists.LANGUAGES)


def client_locales() -> dict[str, str]:
    """The languages the client offers (strings.js LOCALES): code → the language's own name."""
    source = (STATIC / "strings.js").read_text(encoding="utf-8")
    block = source.split("export const LOCALES = Object.freeze({", 1)[1].split("});", 1)[0]
    return dict(re.findall(r'^\s*(\w+): "([^"]+)",', block, re.M))


LOCALES = tuple(client_locales())
OTHERS = tuple(code for code in LOCALES if code != "en")

# Cardinal categories. ru, uk and pl need four ("other" is their form for fractions); id needs
# one; fr/es/it/pt's CLDR "many" only applies from a million, which the game never shows.
CARDINAL: dict[str, set[str]] = {
    **{code: {"one", "other"} for code in CODES},
    "id": {"other"},
    "ru": {"one", "few", "many", "other"},
    "uk": {"one", "few", "many", "other"},
    "pl": {"one", "few", "many", "other"},
}
# Ordinal categories (keys ending in ".ordinal"): "1st 2nd 3rd 4th", Italian "l'8º", Kazakh
# "-шы" after 6, 9, 10…, Ukrainian "3-тє".
ORDINAL: dict[str, set[str]] = {
    **{code: {"other"} for code in CODES},
    "en": {"one", "two", "few", "other"},
    "fr": {"one", "other"},
    "it": {"many", "other"},
    "kk": {"many", "other"},
    "uk": {"few", "other"},
}

PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(code: str) -> dict[str, Any]:
    data = json.loads((I18N / f"{code}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


ENGLISH = catalogue("en")


def forms(value: Any) -> list[str]:
    """A message's texts: the string, or every form of a plural message."""
    return list(value.values()) if isinstance(value, dict) else [value]


def placeholders(value: Any) -> set[str]:
    return {name for text in forms(value) for name in PLACEHOLDER.findall(text)}
