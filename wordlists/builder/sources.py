"""The pinned sources of every language's lists and the knobs of their selection.

Changing a version here changes the committed data: rebuild and commit both together.
"""

from __future__ import annotations

from dataclasses import dataclass

HUNSPELL_DIR = "/usr/share/hunspell"
WORDFREQ_VERSION = "3.1.1"
HUNSPELL_TOOLS = ("hunspell-tools", "1.7.1-1")  # unmunch
HUNSPELL = ("hunspell", "1.7.1-1")  # hunspell -G checks wordfreq's words


@dataclass(frozen=True)
class Dictionary:
    name: str  # file stem under HUNSPELL_DIR, e.g. "pt_BR"
    package: str
    version: str


@dataclass(frozen=True)
class LanguageSource:
    code: str
    dictionaries: tuple[Dictionary, ...]
    # wordfreq language code; None where wordfreq has no list (secrets ranked by word family).
    frequency: str | None
    max_secrets: int = 1500
    # Secrets need at least this Zipf frequency (3 = once per million words).
    min_zipf: float = 2.9
    # German writes nouns with a capital: keep capitalised stems that inflect like nouns.
    capitalised_nouns: bool = False
    # Flags of entries that are conjugated forms rather than infinitives (German fand/Z).
    verb_form_flags: frozenset[str] = frozenset()
    # The dictionary is a plain word list in Cyrillic, transliterated to the Latin script.
    uzbek_cyrillic: bool = False


def _dic(name: str, package: str, version: str) -> Dictionary:
    return Dictionary(name, package, version)


_LIBREOFFICE = "1:7.5.0-1"

SOURCES: dict[str, LanguageSource] = {
    source.code: source
    for source in (
        LanguageSource("en", (_dic("en_US", "hunspell-en-us", "1:2020.12.07-2"),), "en"),
        LanguageSource("id", (_dic("id_ID", "hunspell-id", _LIBREOFFICE),), "id", min_zipf=2.5),
        LanguageSource(
            "de",
            (_dic("de_DE", "hunspell-de-de", "20161207-11"),),
            "de",
            capitalised_nouns=True,
            verb_form_flags=frozenset("XWZ"),
        ),
        LanguageSource("es", (_dic("es_ES", "hunspell-es", _LIBREOFFICE),), "es", min_zipf=2.4),
        LanguageSource("fr", (_dic("fr", "hunspell-fr", "1:7.0-1"),), "fr"),
        LanguageSource("it", (_dic("it_IT", "hunspell-it", _LIBREOFFICE),), "it"),
        LanguageSource("nl", (_dic("nl", "hunspell-nl", "2:2.20.19-2"),), "nl"),
        LanguageSource(
            "uz",
            (_dic("uz_UZ", "hunspell-uz", "0.6-6"),),
            None,
            max_secrets=1000,
            uzbek_cyrillic=True,
        ),
        LanguageSource("pl", (_dic("pl_PL", "hunspell-pl", _LIBREOFFICE),), "pl"),
        LanguageSource(
            "pt",
            (
                _dic("pt_PT", "hunspell-pt-pt", _LIBREOFFICE),
                _dic("pt_BR", "hunspell-pt-br", _LIBREOFFICE),
            ),
            "pt",
            min_zipf=2.4,
        ),
        LanguageSource("kk", (_dic("kk_KZ", "hunspell-kk", "1.1-3"),), None, max_secrets=1000),
        LanguageSource("ru", (_dic("ru_RU", "hunspell-ru", _LIBREOFFICE),), "ru"),
        LanguageSource("uk", (_dic("uk_UA", "hunspell-uk", _LIBREOFFICE),), "uk"),
    )
}
