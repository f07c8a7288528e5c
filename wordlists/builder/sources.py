"""The pinned sources of every language's lists and the knobs of their selection.

Changing a version here changes the committed data: rebuild and commit both together.
"""

from __future__ import annotations

from dataclasses import dataclass

HUNSPELL_DIR = "/usr/share/hunspell"
WORDFREQ_VERSION = "3.1.1"
HUNSPELL_TOOLS = ("hunspell-tools", "1.7.1-1")  # unmunch
HUNSPELL = ("hunspell", "1.7.1-1")  # hunspell -G checks wordfreq's words
# Morphological analysis of Russian and Ukrainian secrets (PyPI packages, the `build` extra).
PYMORPHY = ("pymorphy3", "2.0.6")
PYMORPHY_DICTIONARIES = {
    "ru": ("pymorphy3-dicts-ru", "2.4.417150.4580142"),  # OpenCorpora
    "uk": ("pymorphy3-dicts-uk", "2.4.1.1.1663094765"),  # dict_uk (LanguageTool)
}


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
    # Where fewer than 500 secrets reach min_zipf, the most frequent words down to this one
    # fill the list up to 500 (None: no filling).
    floor_zipf: float | None = None
    # German writes nouns with a capital: keep capitalised stems that inflect like nouns.
    capitalised_nouns: bool = False
    # Flags of entries that are conjugated forms rather than infinitives (German fand/Z).
    verb_form_flags: frozenset[str] = frozenset()
    # The dictionary is a plain word list in Cyrillic, transliterated to the Latin script.
    uzbek_cyrillic: bool = False
    # Secret rules (see selection.py). A secret needs one of `vowels`; none of `foreign_letters`
    # (letters only loanwords use); at most `edge_consonants` consonants at its start and end;
    # and a last letter among `final_letters` when that is set.
    vowels: str = "aeiouy"
    foreign_letters: str = ""
    edge_consonants: tuple[int, int] | None = None
    final_letters: str | None = None
    # Only entries that carry affix flags (that inflect) can be secrets: these dictionaries list
    # function words, irregular forms (en stood, myths; de wird, bläst; es vamos, daba),
    # verbs with clitics (es dame), abbreviations and (Polish) English words without flags.
    secrets_need_flags: bool = False
    # pymorphy3 language: secrets must be common nouns in their dictionary form (see morphology.py).
    morphology: str | None = None


def _dic(name: str, package: str, version: str) -> Dictionary:
    return Dictionary(name, package, version)


_LIBREOFFICE = "1:7.5.0-1"
_FLOOR = 2.0

SOURCES: dict[str, LanguageSource] = {
    source.code: source
    for source in (
        LanguageSource(
            "en",
            (_dic("en_US", "hunspell-en-us", "1:2020.12.07-2"),),
            "en",
            floor_zipf=_FLOOR,
            secrets_need_flags=True,
        ),
        LanguageSource(
            "id",
            (_dic("id_ID", "hunspell-id", _LIBREOFFICE),),
            "id",
            floor_zipf=_FLOOR,
            min_zipf=2.5,
            vowels="aeiou",
            edge_consonants=(2, 2),
        ),
        LanguageSource(
            "de",
            (_dic("de_DE", "hunspell-de-de", "20161207-11"),),
            "de",
            floor_zipf=_FLOOR,
            capitalised_nouns=True,
            verb_form_flags=frozenset("XWZ"),
            vowels="aeiouyäöü",
            secrets_need_flags=True,
        ),
        LanguageSource(
            "es",
            (_dic("es_ES", "hunspell-es", _LIBREOFFICE),),
            "es",
            floor_zipf=_FLOOR,
            min_zipf=2.4,
            vowels="aeiou",
            foreign_letters="w",
            edge_consonants=(2, 1),
            secrets_need_flags=True,
            final_letters="aeioudjlnrsxyz",
        ),
        LanguageSource("fr", (_dic("fr", "hunspell-fr", "1:7.0-1"),), "fr", floor_zipf=_FLOOR),
        LanguageSource(
            "it",
            (_dic("it_IT", "hunspell-it", _LIBREOFFICE),),
            "it",
            # Lower, the filling words get obscure (ipse, orsù): see README's known limits.
            floor_zipf=2.7,
            vowels="aeiou",
            foreign_letters="jkwxy",
            final_letters="aeiou",
        ),
        LanguageSource("nl", (_dic("nl", "hunspell-nl", "2:2.20.19-2"),), "nl", floor_zipf=_FLOOR),
        LanguageSource(
            "uz",
            (_dic("uz_UZ", "hunspell-uz", "0.6-6"),),
            None,
            max_secrets=1000,
            uzbek_cyrillic=True,
            vowels="aeiouoʻ",
        ),
        LanguageSource(
            "pl",
            (_dic("pl_PL", "hunspell-pl", _LIBREOFFICE),),
            "pl",
            floor_zipf=_FLOOR,
            vowels="aeiouyąęó",
            foreign_letters="qvx",
            secrets_need_flags=True,
        ),
        LanguageSource(
            "pt",
            (
                _dic("pt_PT", "hunspell-pt-pt", _LIBREOFFICE),
                _dic("pt_BR", "hunspell-pt-br", _LIBREOFFICE),
            ),
            "pt",
            floor_zipf=_FLOOR,
            min_zipf=2.4,
            vowels="aeiou",
            foreign_letters="kwy",
            edge_consonants=(2, 1),
            final_letters="aeioulmrsxz",
        ),
        LanguageSource(
            "kk",
            (_dic("kk_KZ", "hunspell-kk", "1.1-3"),),
            None,
            max_secrets=1000,
            vowels="аеёиоуыэюяәөұүі",
        ),
        LanguageSource(
            "ru",
            (_dic("ru_RU", "hunspell-ru", _LIBREOFFICE),),
            "ru",
            floor_zipf=_FLOOR,
            vowels="аеёиоуыэюя",
            morphology="ru",
        ),
        LanguageSource(
            "uk",
            (_dic("uk_UA", "hunspell-uk", _LIBREOFFICE),),
            "uk",
            floor_zipf=_FLOOR,
            vowels="аеєиіїоуюя",
            morphology="uk",
        ),
    )
}
