"""Base forms in Debian's Uzbek list, which spells out every inflected form and has no affixes.

A word is taken as inflected when it is another listed word plus one inflectional ending
(case, plural, possessive, person, tense, negation), so that болаларга (bolalarga) goes while
бола stays, or plus a chain of plural, possessive and case endings in that order (ўнгида, oʻngida:
ўнг + и + да; болаларимизни). After a possessive only the case endings that follow it count
(-га, not -қа), so that тариқа or йордам are not taken for тар + и + қа or йор + да + м.
Derivational endings (-лик, -чи, -ла...) make new base words and are not listed here.
"""

from __future__ import annotations

from collections.abc import Iterable

_ENDINGS = """
    лар га ка қа да та дан тан ни нинг нг ми дек даги гача ча роқ
    им м инг иги и си миз имиз ингиз нгиз
    ман сан сиз миз дир ди ган кан қан са иб б ади йди япти моқда ар р май мас
"""
INFLECTIONAL_ENDINGS = frozenset(_ENDINGS.split())


def _words(text: str) -> list[str]:
    return text.split()


_PLURAL = frozenset({"лар"})
_POSSESSIVE = frozenset(_words("им м инг нг и си миз имиз ингиз нгиз"))
_CASE = frozenset(_words("га ка қа да та дан тан ни нинг даги гача дек"))
_CASE_AFTER_POSSESSIVE = frozenset(_words("га да дан ни нинг даги гача дек"))

_MIN_STEM = 2


# Final consonants that voice before a vowel ending: чорак → чораги, қишлоқ → қишлоғи.
_VOICED = {"г": "к", "ғ": "қ"}


def _stem_listed(stem: str, listed: set[str]) -> bool:
    if stem in listed or stem + "моқ" in listed:  # a verb's stem, listed by its infinitive
        return True
    return stem[-1:] in _VOICED and stem[:-1] + _VOICED[stem[-1]] in listed


def _splits(rest: str, first: frozenset[str]) -> list[str]:
    """What is left of `rest` after each ending of `first` that it starts with."""
    return [rest[len(e) :] for e in first if rest.startswith(e) and len(rest) > len(e)]


def _is_chain(rest: str) -> bool:
    """Plural + possessive, plural + case, possessive + case, or all three, in that order."""

    def possessive_then_case(text: str) -> bool:
        return any(tail in _CASE_AFTER_POSSESSIVE for tail in _splits(text, _POSSESSIVE))

    plural_rests = _splits(rest, _PLURAL)
    return possessive_then_case(rest) or any(
        tail in _POSSESSIVE or tail in _CASE or possessive_then_case(tail) for tail in plural_rests
    )


def _is_endings(rest: str) -> bool:
    return rest in INFLECTIONAL_ENDINGS or _is_chain(rest)


def inflected_words(words: Iterable[str]) -> set[str]:
    listed = set(words)
    inflected: set[str] = set()
    for word in listed:
        for cut in range(_MIN_STEM, len(word)):
            if _is_endings(word[cut:]) and _stem_listed(word[:cut], listed):
                inflected.add(word)
                break
    return inflected
