"""Base forms in Debian's Uzbek list, which spells out every inflected form and has no affixes.

A word is taken as inflected when it is another listed word plus one inflectional ending
(case, plural, possessive, person, tense), so that болаларга (bolalarga) goes while бола stays.
Derivational endings (-лик, -чи, -ла...) make new base words and are not listed here.
"""

from __future__ import annotations

from collections.abc import Iterable

_ENDINGS = """
    лар га ка қа да та дан тан ни нинг нг ми дек даги гача ча роқ
    им м инг иги и си миз имиз ингиз нгиз
    ман сан сиз миз дир ди ган кан қан са иб б ади йди япти моқда ар р
"""
INFLECTIONAL_ENDINGS = frozenset(_ENDINGS.split())

_MIN_STEM = 2


# Final consonants that voice before a vowel ending: чорак → чораги, қишлоқ → қишлоғи.
_VOICED = {"г": "к", "ғ": "қ"}


def _stem_listed(stem: str, listed: set[str]) -> bool:
    if stem in listed or stem + "моқ" in listed:  # a verb's stem, listed by its infinitive
        return True
    return stem[-1:] in _VOICED and stem[:-1] + _VOICED[stem[-1]] in listed


def inflected_words(words: Iterable[str]) -> set[str]:
    listed = set(words)
    inflected: set[str] = set()
    for word in listed:
        for cut in range(_MIN_STEM, len(word)):
            if word[cut:] in INFLECTIONAL_ENDINGS and _stem_listed(word[:cut], listed):
                inflected.add(word)
                break
    return inflected
