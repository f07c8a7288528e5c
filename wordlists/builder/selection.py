"""Choosing accepted guesses and secret words from expanded dictionaries: pure and deterministic.

Accepted guesses: every lower-case form a dictionary generates (German nouns included) that
normalises to 4–6 tiles, and every word of wordfreq's list that hunspell accepts. Secrets:
dictionary stems (base forms) that no other entry derives, are common (wordfreq Zipf frequency,
or the size of the word's family in the dictionary where wordfreq has no data), are not blocked
or rejected, are accepted by every dictionary, and pass the language's spelling rules (a vowel;
no loanword letters; consonant clusters at the edges; the last letter; see `LanguageSource`).
Russian and Ukrainian secrets must also be common nouns in their lemma form (`base_form`).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from wordlists.builder.hunspell import Entry
from wordlists.builder.sources import LanguageSource
from wordlists.codec import encode
from wordlists.languages import LENGTHS

Word = tuple[str, ...]
ToTiles = Callable[[str], Word | None]
Frequency = Callable[[str], float]

MIN_SECRETS = 500
ACCEPTED_PER_SECRET = 3


@dataclass(frozen=True)
class WordLists:
    """Per length: the secrets and the accepted words (a superset), each sorted by key."""

    lang: str
    secrets: dict[int, tuple[Word, ...]]
    accepted: dict[int, tuple[Word, ...]]


def _is_common_noun(entry: Entry) -> bool:
    """German: a capitalised stem that inflects beyond a genitive s is a noun, not a name."""
    stem = entry.stem
    if not (stem[:1].isupper() and stem[1:] == stem[1:].lower()):
        return False
    genitive = {stem, stem + "s", stem + "es"}
    return any(form.isalpha() and form not in genitive for form in entry.forms)


def inflected_forms(entries: Iterable[Entry]) -> set[str]:
    """Forms an entry derives with affixes: cats from cat, acabo from acabar.

    A stem that is also another entry's form is left out of the secrets even when it is a base
    form too (Spanish vino, a noun and a form of venir): better a good word missing than a
    conjugated one drawn.
    """
    inflected: set[str] = set()
    for entry in entries:
        inflected.update(form for form in entry.forms if form != entry.stem)
    return inflected


def proper_noun_homographs(entries: Iterable[Entry]) -> set[str]:
    """Lower-case spellings of capitalised entries (names): ruth beside Ruth, pedro beside Pedro."""
    return {e.stem.lower() for e in entries if e.stem[:1].isupper()}


def _umlaut_plural(stem: str, nouns: set[str]) -> bool:
    """German noun plurals listed as entries of their own: Bäche (Bach), Löcher (Loch), Kühe
    (Kuh), and umlaut-only plurals of nouns in -el, -er, -en: Mäntel (Mantel), Mütter (Mutter)."""
    if not any(c in stem for c in "äöü"):
        return False
    plain = stem.replace("ä", "a").replace("ö", "o").replace("ü", "u")
    if plain.endswith(("el", "er", "en")) and plain in nouns:
        return True
    return any(plain.removesuffix(end) in nouns for end in ("e", "er", "en") if plain.endswith(end))


def _is_verb_form(entry: Entry, source: LanguageSource) -> bool:
    """Conjugated forms listed as entries of their own (German fand/Z, trifft/XW)."""
    return bool(entry.flags & source.verb_form_flags) and not entry.stem.endswith("n")


def family_sizes(stems: Sequence[str], candidates: Iterable[str]) -> dict[str, int]:
    """How many other stems begin with each candidate: a proxy for how basic a word is."""
    ordered = sorted(set(stems))
    sizes: dict[str, int] = {}
    for word in candidates:
        start = bisect.bisect_right(ordered, word)
        end = bisect.bisect_left(ordered, word + "\U0010ffff")
        sizes[word] = end - start
    return sizes


def _is_vowel(source: LanguageSource, tile: str) -> bool:
    return tile[:1] in source.vowels  # Uzbek oʻ is a vowel, gʻ, sh and ch are not


def _edge_consonants(source: LanguageSource, word: Word) -> tuple[int, int]:
    flags = [_is_vowel(source, tile) for tile in word]
    start = flags.index(True) if True in flags else len(word)
    end = flags[::-1].index(True) if True in flags else len(word)
    return start, end


def spelling_fits(source: LanguageSource, word: Word) -> bool:
    """The language's spelling rules for secrets, which catch abbreviations and loanwords.

    A vowel of the language (Spanish srta, Polish prof.), no letter three times in a row (brrr),
    no letter only loanwords use (Italian yacht), at most so many consonants at the start and
    end (Spanish dpto, Indonesian skrip) and a native last letter (Italian film, Spanish club).
    """
    if not any(_is_vowel(source, tile) for tile in word) or _repeats_three_times(word):
        return False
    if any(tile in source.foreign_letters for tile in word):
        return False
    if source.edge_consonants is not None:
        start, end = _edge_consonants(source, word)
        if start > source.edge_consonants[0] or end > source.edge_consonants[1]:
            return False
    return source.final_letters is None or word[-1] in source.final_letters


def _repeats_three_times(word: Word) -> bool:
    return any(a == b == c for a, b, c in zip(word, word[1:], word[2:], strict=False))


def _key(lang: str, word: Word) -> str:
    return encode(lang, word) or ""


def secret_count(cap: int, candidates: int, accepted: int) -> int:
    """At most `cap` and a third of the accepted words, but the first MIN_SECRETS regardless."""
    return min(candidates, max(min(cap, accepted // ACCEPTED_PER_SECRET), MIN_SECRETS))


def select(
    source: LanguageSource,
    dictionaries: Sequence[Sequence[Entry]],
    to_tiles: ToTiles,
    blocked: set[Word],
    frequency: Frequency | None,
    inflected: set[str] | None = None,
    checked_words: Sequence[set[str]] = (),
    base_form: Callable[[str], bool] | None = None,
) -> WordLists:
    """The lists of one language from its expanded dictionaries (see the module docstring).

    `blocked` words are never secrets but stay accepted. With `base_form` (a morphological
    analyser's verdict), it decides which stems are base forms instead of the affix rules.
    """
    lang = source.code
    accepted_by_dictionary: list[set[Word]] = []
    stems: dict[str, Word] = {}
    for index, entries in enumerate(dictionaries):
        accepted: set[Word] = set()
        derived: set[str] = set()
        if base_form is None:
            derived = inflected_forms(entries) if inflected is None else inflected
        if not source.capitalised_nouns:
            derived = derived | proper_noun_homographs(entries)
        # Every capitalised stem: a noun whose plural is listed apart has no affixes (Kuh).
        nouns = {e.stem for e in entries if source.capitalised_nouns and e.stem[:1].isupper()}
        for entry in entries:
            noun = source.capitalised_nouns and _is_common_noun(entry)
            if not (noun or entry.stem == entry.stem.lower()):
                continue
            for form in entry.forms:
                if form != form.lower() and not (noun and form[1:] == form[1:].lower()):
                    continue
                if (tiles := to_tiles(form)) is not None:
                    accepted.add(tiles)
            if (
                entry.stem in entry.forms
                and entry.stem not in derived
                and (entry.flags or not source.secrets_need_flags)
                and not _is_verb_form(entry, source)
                and not _umlaut_plural(entry.stem, nouns)
            ):
                tiles = to_tiles(entry.stem)
                if tiles is not None:
                    stems.setdefault(entry.stem, tiles)
        if checked_words:
            accepted.update(t for w in checked_words[index] if (t := to_tiles(w)) is not None)
        accepted_by_dictionary.append(accepted)

    accepted_all = set().union(*accepted_by_dictionary)
    accepted_everywhere = set.intersection(*accepted_by_dictionary)
    if frequency is not None:
        scores = {stem: frequency(stem) for stem in stems}
    else:
        every_stem = [e.stem for entries in dictionaries for e in entries]
        scores = {stem: float(n) for stem, n in family_sizes(every_stem, stems).items()}

    min_score = source.min_zipf if source.floor_zipf is None else source.floor_zipf
    best: dict[Word, float] = {}
    for stem, tiles in stems.items():
        if tiles in blocked or tiles not in accepted_everywhere:
            continue
        if not spelling_fits(source, tiles):
            continue
        score = scores[stem]
        if frequency is not None and score < min_score:
            continue
        if base_form is not None and not base_form(stem):
            continue
        best[tiles] = max(score, best.get(tiles, score))

    secrets: dict[int, tuple[Word, ...]] = {}
    accepted_lists: dict[int, tuple[Word, ...]] = {}
    for length in LENGTHS:
        accepted_by_length = [w for w in accepted_all if len(w) == length]
        ranked = sorted(
            (w for w in best if len(w) == length), key=lambda w: (-best[w], _key(lang, w))
        )
        frequent = sum(1 for w in ranked if frequency is None or best[w] >= source.min_zipf)
        count = secret_count(source.max_secrets, frequent, len(accepted_by_length))
        chosen = ranked[: max(count, min(MIN_SECRETS, len(ranked)))]
        secrets[length] = tuple(sorted(chosen, key=lambda w: _key(lang, w)))
        accepted_lists[length] = tuple(
            sorted(accepted_by_length, key=lambda w: encode(lang, w) or "")
        )
    return WordLists(lang, secrets, accepted_lists)
