"""Russian and Ukrainian secrets: common nouns in their dictionary form, by pymorphy3.

hunspell's Russian and Ukrainian dictionaries list many inflected forms as entries of their own
(сошла, неся, всем, збере), which the affix rules cannot tell from base forms. pymorphy3's
dictionaries (OpenCorpora, dict_uk) tag every form, so a secret must be read mostly as a noun
that is its own lemma (nominative singular, or nominative plural of a plural-only noun), not
only as a name or a place, and not mostly as an abbreviation or a slang, informal, archaic or
erroneous word.

Only the build needs pymorphy3 (the `build` extra); the committed lists are read without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Readings of names: a common noun that is also a name (роза, Роза) is still a secret, so these
# readings are left out before the shares are counted; a word read only as a name is no secret.
NAME_GRAMMEMES = frozenset(
    {
        "Name",  # first name
        "Surn",  # surname
        "Patr",  # patronymic
        "Geox",  # place
        "Orgn",  # organisation
        "Trad",  # trademark
    }
)
# Readings that do not make a standard noun: they count against the word.
STYLE_GRAMMEMES = frozenset(
    {
        "Abbr",  # abbreviation
        "Init",  # initial
        "Infr",  # informal
        "Slng",  # slang
        "Arch",  # archaic
        "Erro",  # misspelling
        "Dist",  # distorted form
    }
)

# A secret's noun readings must carry at least this share of its other readings (Russian: of
# the probabilities OpenCorpora's corpus gives each parse; печь stays, знать and стали go).
MIN_NOUN_SHARE = 0.35


def _plain(word: str) -> str:
    return word.replace("ё", "е")


def _is_noun_lemma(parse: Any, word: str) -> bool:
    tag = parse.tag
    return bool(
        tag.POS == "NOUN"
        and _plain(parse.normal_form) == word
        and not (tag.grammemes & STYLE_GRAMMEMES)
    )


def noun_share(parses: list[Any], word: str, weighted: bool) -> float:
    """The share of the word's dictionary readings, names aside, that are a noun's lemma form.

    With `weighted`, each parse counts with its probability (Russian). Without (Ukrainian has no
    corpus probabilities), each distinct (part of speech, lemma, is-a-noun-lemma) reading counts
    once, so that the six case tags of an indeclinable word do not outweigh another reading.
    """
    known = [p for p in parses if p.is_known and not (p.tag.grammemes & NAME_GRAMMEMES)]
    if weighted:
        total = sum(float(p.score) for p in known)
        noun = sum(float(p.score) for p in known if _is_noun_lemma(p, word))
        return noun / total if total > 0 else 0.0
    readings = {(p.tag.POS, p.normal_form, _is_noun_lemma(p, word)) for p in known}
    if not readings:
        return 0.0
    return sum(1 for r in readings if r[2]) / len(readings)


def noun_lemma_test(lang: str) -> Callable[[str], bool]:
    """A predicate: is this lower-case word fit as a secret (a common noun, lemma form)?"""
    import pymorphy3  # type: ignore[import-untyped, import-not-found, unused-ignore]

    analyzer = pymorphy3.MorphAnalyzer(lang=lang)
    weighted = analyzer.prob_estimator is not None

    def is_secret_noun(word: str) -> bool:
        plain = _plain(word)
        return noun_share(analyzer.parse(word), plain, weighted) >= MIN_NOUN_SHARE

    return is_secret_noun
