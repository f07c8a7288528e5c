"""The quality rules for secrets: pinned on the committed data and on small made-up inputs.

None of these tests needs the `build` extra: pymorphy3 is only used when it is installed.
"""

from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from wordlists import LANGUAGES, LENGTHS, is_accepted, normalise
from wordlists.builder.hunspell import Entry
from wordlists.builder.morphology import noun_share
from wordlists.builder.pipeline import REJECT_DIR, read_blocklist, tiles_of
from wordlists.builder.selection import select, spelling_fits
from wordlists.builder.sources import SOURCES, LanguageSource
from wordlists.builder.uzbek_forms import inflected_words
from wordlists.store import secret_words


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_secret_follows_its_languages_spelling_rules(code: str) -> None:
    source = SOURCES[code]
    for length in LENGTHS:
        bad = [w for w in secret_words(code, length) if not spelling_fits(source, w)]
        assert not bad, bad[:20]


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_rejected_words_are_never_secrets(code: str) -> None:
    rejected = read_blocklist(code, REJECT_DIR)
    for length in LENGTHS:
        assert not rejected & set(secret_words(code, length))


# Bad secrets found by spot checks: (language, word, still a valid guess?).
BAD_SECRETS = [
    ("es", "srta", True),  # abbreviation: a guess of its own in the dictionary, not a secret
    ("es", "dpto", True),
    ("es", "nasa", True),
    ("es", "vamos", True),  # conjugated
    ("ru", "неся", True),  # gerund
    ("ru", "сукин", True),  # vulgar possessive
    ("ru", "пошел", True),
    ("ru", "всем", True),  # pronoun form
    ("ru", "сошла", True),
    ("uk", "збере", True),
    ("fr", "live", True),  # English
    ("uz", "oʻngida", True),  # oʻng + i + da
    ("de", "wobei", True),  # conjunction
    ("de", "wird", True),
    ("de", "mäuse", True),  # plural
    ("en", "stood", True),  # irregular past listed apart
    ("en", "myths", True),
    ("pl", "with", True),  # English in the Polish dictionary
    ("pl", "jego", True),  # pronoun form
    ("nl", "like", True),
    ("it", "film", True),
    ("it", "quel", True),  # truncated form
    ("pt", "show", True),
]


@pytest.mark.parametrize(("lang", "word", "accepted"), BAD_SECRETS)
def test_spot_checked_bad_words_are_not_secrets(lang: str, word: str, accepted: bool) -> None:
    tiles = normalise(lang, word)
    assert tiles not in set(secret_words(lang, len(tiles)))
    assert is_accepted(lang, tiles) == accepted


GOOD_SECRETS = [
    ("ru", "кошка"),
    ("ru", "печь"),
    ("ru", "роза"),
    ("uk", "вода"),
    ("es", "queso"),
    ("fr", "table"),
    ("it", "gatto"),
    ("de", "Käse"),
    ("pl", "okno"),
    ("en", "skull"),
    ("uz", "kitob"),
]


@pytest.mark.parametrize(("lang", "word"), GOOD_SECRETS)
def test_common_nouns_are_still_secrets(lang: str, word: str) -> None:
    tiles = normalise(lang, word)
    assert tiles in set(secret_words(lang, len(tiles)))


@pytest.mark.parametrize("code", ["ru", "uk"])
def test_russian_and_ukrainian_secrets_are_noun_lemmas(code: str) -> None:
    from wordlists.builder.morphology import noun_lemma_test

    is_noun = noun_lemma_test(code)

    def passes(word: str) -> bool:
        # The lists fold ё to е; the build saw the dictionary's spelling (осёл, not осел).
        spellings = [word] + [
            word[:i] + "ё" + word[i + 1 :] for i, c in enumerate(word) if c == "е"
        ]
        return any(is_noun(spelling) for spelling in spellings)

    for length in LENGTHS:
        bad = ["".join(w) for w in secret_words(code, length) if not passes("".join(w))]
        assert not bad, bad[:20]


def _source(**rules: object) -> LanguageSource:
    return LanguageSource("es", (), "es", **rules)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("word", "fits"),
    [
        ("perro", True),
        ("srta", False),  # three consonants at the start
        ("inst", False),  # three at the end
        ("golf", False),  # two at the end
        ("club", False),  # a last letter Spanish words do not end with
        ("whisky", False),  # w is a loanword letter
        ("brrr", False),  # no vowel
        ("árbol", True),
        ("reloj", True),
    ],
)
def test_spelling_rules(word: str, fits: bool) -> None:
    source = SOURCES["es"]
    assert spelling_fits(source, normalise("es", word)) == fits


def test_spelling_rules_count_language_vowels() -> None:
    assert spelling_fits(_source(vowels="aeiouy"), tuple("myth"))
    assert not spelling_fits(_source(vowels="aeiou"), tuple("myth"))
    uzbek = SOURCES["uz"]
    assert spelling_fits(uzbek, ("oʻ", "t"))
    assert not spelling_fits(uzbek, ("sh", "gʻ", "t"))


def test_flagless_entries_are_not_secrets_where_required() -> None:
    entries = [
        Entry("house", frozenset("S"), ("house", "houses")),
        Entry("stood", frozenset(), ("stood",)),
        Entry("since", frozenset(), ("since",)),
    ]
    for need_flags, expected in ((False, {"house", "stood", "since"}), (True, {"house"})):
        source = LanguageSource("en", (), "en", min_zipf=0, secrets_need_flags=need_flags)
        lists = select(source, [entries], tiles_of("en"), set(), lambda w: 5.0)
        assert {"".join(w) for w in lists.secrets[5]} == expected
        assert {"".join(w) for w in lists.accepted[5]} >= {"house", "stood", "since"}


def test_base_form_test_replaces_the_affix_rules() -> None:
    entries = [
        Entry("стол", frozenset("A"), ("стол", "стола")),
        Entry("неся", frozenset(), ("неся",)),
    ]
    source = LanguageSource("ru", (), "ru", min_zipf=0, vowels="аеиоуыэюя")
    lists = select(
        source, [entries], tiles_of("ru"), set(), lambda w: 5.0, base_form=lambda w: w == "стол"
    )
    assert {"".join(w) for w in lists.secrets[4]} == {"стол"}
    assert {"".join(w) for w in lists.accepted[4]} == {"стол", "неся"}


def test_the_zipf_floor_fills_up_to_500_only() -> None:
    entries = [
        Entry(f"ba{a}{b}a", frozenset("S"), (f"ba{a}{b}a",)) for a in "bcdfg" for b in "lmnr"
    ]
    freq = {e.stem: 3.0 if i < 5 else 2.2 for i, e in enumerate(entries)}
    source = LanguageSource("en", (), "en", min_zipf=2.9)
    assert len(select(source, [entries], tiles_of("en"), set(), freq.__getitem__).secrets[5]) == 5
    filled = LanguageSource("en", (), "en", min_zipf=2.9, floor_zipf=2.0)
    assert len(select(filled, [entries], tiles_of("en"), set(), freq.__getitem__).secrets[5]) == 20


@dataclass
class FakeTag:
    POS: str
    grammemes: frozenset[str]


def _parse(pos: str, lemma: str, score: float, *grammemes: str) -> SimpleNamespace:
    tag = FakeTag(pos, frozenset(grammemes))
    return SimpleNamespace(tag=tag, normal_form=lemma, score=score, is_known=True)


def test_noun_share() -> None:
    # печь: mostly the noun; знать: mostly the verb; роза: a name too, which does not count.
    pech = [_parse("NOUN", "печь", 0.7, "nomn"), _parse("INFN", "печь", 0.3)]
    assert noun_share(pech, "печь", weighted=True) == pytest.approx(0.7)
    znat = [_parse("INFN", "знать", 0.9), _parse("NOUN", "знать", 0.1, "nomn")]
    assert noun_share(znat, "знать", weighted=True) == pytest.approx(0.1)
    roza = [_parse("NOUN", "роза", 0.7, "Name"), _parse("NOUN", "роза", 0.3)]
    assert noun_share(roza, "роза", weighted=True) == 1.0
    assert noun_share([_parse("NOUN", "иван", 1.0, "Name")], "иван", weighted=True) == 0.0
    stali = [_parse("VERB", "стати", 1.0), _parse("NOUN", "сталь", 1.0, "gent")]
    assert noun_share(stali, "стали", weighted=False) == 0.0
    # Unweighted (Ukrainian): each distinct reading once, however many case tags it has.
    pyla = [_parse("NOUN", "пила", 1.0, c) for c in ("nomn", "accs")] + [
        _parse("VERB", "пити", 1.0)
    ]
    assert noun_share(pyla, "пила", weighted=False) == 0.5
    slang = [_parse("NOUN", "бабки", 1.0, "Slng")]
    assert noun_share(slang, "бабки", weighted=False) == 0.0


def test_uzbek_chains_of_endings() -> None:
    words = ["ўнг", "ўнгида", "тар", "тариқа", "йор", "йордам", "бола", "болаларимизни"]
    assert inflected_words(words) == {"ўнгида", "болаларимизни"}
