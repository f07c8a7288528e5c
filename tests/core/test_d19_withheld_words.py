"""D18, D19: the service never suggests (the coach's best word) nor plays (a bot's word) a blocked
word of the language (R25's lists, read as dictionary words: core.blocked_words.blocked_entry),
though a person may play one and every candidate, blocked or not, is counted."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import wordlists
from api import words
from api.service import names
from core import analysis, bots
from core.blocked_words import blocked_entries, blocked_entry, blocked_word
from core.duel import Duel, Turn, Word
from core.feedback import score
from core.solver import board as sb
from core.solver.lexicon import Lexicon

W = tuple


def _raw(language: str, length: int) -> Lexicon:
    """The lexicon as it was before words were withheld."""
    return Lexicon.from_lists(
        wordlists.secret_words(language, length), wordlists.accepted_words(language, length)
    )


def _ended(secret: Word, played: list[Word]) -> Duel:
    turns = tuple(
        Turn("ab"[i % 2], w, score(secret, w), 1000 * (i + 1)) for i, w in enumerate(played)
    )
    return Duel("r1d1", ("a", "b"), secret, 0, 30_000, turns, ended_at=10**6, winner="a")


def _blocked(word: str, language: str) -> bool:
    return blocked_entry(word, names.blocked(language), names.confusables()) is not None


def test_r25_a_dictionary_word_is_blocked_as_the_entries_say_without_nickname_readings() -> None:
    for word in ("fucked", "whores", "bitchy", "shitty", "nigger"):
        assert _blocked(word, "en"), word
    for word in ("dickens", "cockle", "assess", "sextet", "scunthorpe", "analog", "title"):
        assert not _blocked(word, "en"), word
    # A nickname's look-alike readings would refuse ordinary words of another script: the
    # Russian name Жора reads "zhopa" in Latin look-alikes; as a dictionary word it is itself.
    assert blocked_word("жора", names.blocked("ru"), names.confusables()) is not None
    assert not _blocked("жора", "ru")
    assert _blocked("сука", "ru") and _blocked("kurwa", "pl")


def test_d18_d19_a_whole_list_is_read_as_each_of_its_words_would_be() -> None:
    # Letter by letter (blocked_entries) as whole (blocked_entry), in the scripts and marks that
    # make readings differ: Polish and German letters, Uzbek apostrophes, Cyrillic.
    for language in ("pl", "de", "uz", "uk", "kk"):
        table, listed = names.confusables(), names.blocked(language)
        for length in wordlists.LENGTHS:
            texts = ["".join(w) for w in wordlists.accepted_words(language, length)]
            fast = blocked_entries(texts, listed, table)
            assert fast == [t for t in texts if blocked_entry(t, listed, table) is not None]


def test_d18_d19_the_shells_lexicon_withholds_exactly_the_blocked_accepted_words() -> None:
    for language in ("en", "ru", "pl"):
        for length in wordlists.LENGTHS:
            lex = words.lexicon(language, length)
            accepted = wordlists.accepted_words(language, length)
            expected = {w for w in accepted if _blocked("".join(w), language)}
            assert lex.withheld == expected and expected
            assert all(lex.offers(w) == (w not in expected) for w in lex.universe)
            offered = {lex.universe[j] for j in range(len(lex.universe)) if lex.offered >> j & 1}
            assert offered == set(lex.universe) - expected


def _bitchy_board() -> tuple[Lexicon, Lexicon, list[sb.Row]]:
    """English, six letters: the secret "bitchy" (a secret, and blocked), after "apathy" only
    "bitchy" and "touchy" are left, and the coach would otherwise suggest "bitchy"."""
    filtered, raw = words.lexicon("en", 6), _raw("en", 6)
    rows = [(W("apathy"), score(W("bitchy"), W("apathy")))]
    return filtered, raw, rows


def test_d19_the_coach_never_suggests_a_blocked_word_but_counts_it_as_a_candidate() -> None:
    filtered, raw, rows = _bitchy_board()
    left = sb.candidates(raw, rows)
    assert set(raw.words(left)) == {W("bitchy"), W("touchy")}
    assert sb.options(raw, left, random.Random(0))[0].word == W("bitchy")  # the case it fixes
    assert sb.candidates(filtered, rows) == left
    best = sb.options(filtered, left, random.Random(0))
    assert W("bitchy") not in {o.word for o in best}
    assert best[0].word == W("touchy")
    # The whole analysis of a duel a person ended by playing the blocked secret.
    duel = _ended(W("bitchy"), [W("apathy"), W("touchy"), W("bitchy")])
    rows_of = analysis.analyse(duel, filtered, seed=7).rows
    assert [r.before for r in rows_of] == [len(filtered.secrets), 2, 1]
    assert all(r.best is None or filtered.offers(r.best) for r in rows_of)
    last = rows_of[-1]
    assert last.word == W("bitchy") and last.played_expected == 0.0 and last.skill == 100
    assert last.best is not None and last.best != W("bitchy")


def test_d18_a_bot_never_plays_a_blocked_word_even_the_last_candidate() -> None:
    filtered, raw, rows = _bitchy_board()
    ratings = (600, 1000, 1400)
    raw_words, played = set(), set()
    for seed in range(40):
        for rating in ratings:
            board: list[sb.BoardRow] = list(rows)
            raw_words.add(bots.house_word(seed, "d1", 1, rating, board, raw))
            played.add(bots.house_word(seed, "d1", 1, rating, board, filtered))
            touchy = (W("touchy"), score(W("bitchy"), W("touchy")))  # only "bitchy" is left
            played.add(bots.house_word(seed, "d1", 2, rating, [*board, touchy], filtered))
    assert W("bitchy") in raw_words  # the case it fixes
    assert not played & filtered.withheld


_TILES = "abcde"
_WORDS = st.lists(
    st.text(alphabet=_TILES, min_size=3, max_size=3), min_size=4, max_size=30, unique=True
)


@settings(max_examples=120, deadline=None)
@given(data=st.data(), words_=_WORDS)
def test_d18_d19_no_offer_is_ever_withheld_and_candidates_are_all_counted(
    data: st.DataObject, words_: list[str]
) -> None:
    split = data.draw(st.integers(1, len(words_)))
    secrets, others = [W(w) for w in words_[:split]], [W(w) for w in words_[split:]]
    withheld = data.draw(st.sets(st.sampled_from([W(w) for w in words_]), max_size=len(words_) - 1))
    lex = Lexicon.build(secrets, others, withheld)
    plain = Lexicon.build(secrets, others)
    secret = data.draw(st.sampled_from(secrets))
    guesses: list[Word] = data.draw(
        st.lists(st.sampled_from([W(w) for w in words_]), max_size=3, unique=True)
    )
    rows = [(g, score(secret, g)) for g in guesses]
    seed = data.draw(st.integers(0, 2**32))
    steps = sb.steps(lex, rows, random.Random(seed))
    assert [s.before for s in steps] == [s.before for s in sb.steps(plain, rows, random.Random(0))]
    for s in steps:
        assert all(lex.offers(o.word) for o in s.options)
        assert s.played is not None
    for skill in bots.SKILLS.values():
        rng = random.Random(seed)
        word = bots.pick(lex, skill, rows, bots.vocabulary(lex, skill, rng), rng, aim=0.5)
        assert lex.offers(word) or word == rows[0][0]  # (a played word: nothing else is left)
