"""The solver engine (core.solver) that the coach (D19) and the house bots (D18) share: its sets
agree with D3's feedback word by word, and a board's rows are counted and compared right."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import wordlists
from core.feedback import score
from core.solver import board as sb
from core.solver.lexicon import Lexicon, members
from core.solver.split import consistent, expected_left, split
from tests.core.helpers import real_words

EN = real_words("en")

# Few tiles, so that words repeat letters often (D3's hard cases).
words_of = st.lists(st.sampled_from("abcde"), min_size=5, max_size=5).map(tuple)


@settings(max_examples=150, deadline=None)
@given(
    secrets=st.lists(words_of, min_size=1, max_size=40, unique=True),
    others=st.lists(words_of, max_size=20, unique=True),
    guess=words_of,
    secret=st.integers(0, 10**6),
    subset=st.integers(0, 2**60),
)
def test_d3_solver_sets_agree_with_the_feedback_of_every_word(
    secrets: list[tuple[str, ...]],
    others: list[tuple[str, ...]],
    guess: tuple[str, ...],
    secret: int,
    subset: int,
) -> None:
    lex = Lexicon.build(secrets, others)
    universe = lex.universe
    within = subset & ((1 << len(universe)) - 1)
    chosen = [universe[j] for j in members(within)]
    truth = universe[secret % len(universe)]
    marks = score(truth, guess)
    assert lex.words(consistent(lex, within, guess, marks)) == [
        w for w in chosen if score(w, guess) == marks
    ]
    sizes = sorted(g.bit_count() for g in split(lex, within, guess))
    by_marks = Counter(score(w, guess) for w in chosen)
    assert sizes == sorted(by_marks.values())
    if chosen:
        won = 1 if guess in chosen else 0
        expected = (sum(n * n for n in by_marks.values()) - won) / len(chosen)
        assert math.isclose(expected_left(lex, within, guess), expected)


def test_d12_lexicons_of_every_language_and_length_keep_the_secret_possible() -> None:
    """Multi-letter tiles (Uzbek oʻ, sh), Cyrillic, accents: the index works on tiles."""
    rng = random.Random(4)
    for language in wordlists.LANGUAGES:
        for length in wordlists.LENGTHS:
            lex = Lexicon.from_lists(
                wordlists.secret_words(language, length),
                wordlists.accepted_words(language, length),
            )
            for _ in range(3):
                secret = rng.choice(lex.secrets)
                guesses = [lex.accepted_word(rng.randrange(lex.accepted_count)) for _ in range(3)]
                board = [(g, score(secret, g)) for g in guesses]
                left = lex.words(sb.candidates(lex, board))
                assert secret in left
                assert left == [w for w in lex.secrets if all(score(w, g) == m for g, m in board)]


def _board(secret: tuple[str, ...], guesses: list[str | None]) -> list[sb.BoardRow]:
    return [None if g is None else (tuple(g), score(secret, tuple(g))) for g in guesses]


def test_d19_steps_count_the_candidates_before_and_after_each_row() -> None:
    lex = EN.lexicon(5)  # type: ignore[misc]
    secret = tuple("actor")
    assert secret in lex.secrets
    board = _board(secret, ["slate", None, "pious", "actor"])
    steps = sb.steps(lex, board, random.Random(1))
    assert [s.row for s in steps] == [0, 1, 2, 3]
    left = list(lex.secrets)
    for step, row in zip(steps, board, strict=True):
        assert step.count_before == len(left)
        if row is not None:
            left = [w for w in left if score(w, row[0]) == row[1]]
        assert step.count_after == len(left)
    skip = steps[1]
    assert skip.word is None and skip.options == () and skip.before == skip.after
    assert steps[-1].solved and steps[-1].left == 0 and steps[-1].info_share == 1.0
    first = steps[0]
    assert 0 < (first.info_share or 0) < 1
    assert math.isclose(first.bits_gained, math.log2(first.count_before / first.count_after))


def test_d19_options_are_seeded_and_the_best_is_no_worse_than_the_played_word() -> None:
    lex = EN.lexicon(6)  # type: ignore[misc]
    secret = lex.secrets[321]
    board = _board(secret, ["planet", "mousey"])
    a = sb.steps(lex, board, random.Random(9))
    b = sb.steps(lex, board, random.Random(9))
    assert a == b  # reproducible for one seed
    for step in a:
        assert step.best is not None and step.played is not None
        assert step.best.expected <= step.played
        assert [o.expected for o in step.options] == sorted(o.expected for o in step.options)
        assert len(step.options) <= sb.CANDIDATE_OPTIONS + sb.PROBE_OPTIONS + 1
    # few candidates left: all of them are compared, and one of them is best
    few = sb.options(lex, sb.candidates(lex, board), random.Random(0))
    left = lex.words(sb.candidates(lex, board))
    if len(left) <= sb.PROBES_ABOVE:
        assert {o.word for o in few} == set(left)


def test_d19_a_candidate_is_best_once_at_most_three_are_left() -> None:
    """Why PROBES_ABOVE is 3: checked against every accepted word of a language."""
    lex = EN.lexicon(4)  # type: ignore[misc]
    rng = random.Random(2)
    every = [lex.accepted_word(i) for i in range(lex.accepted_count)]
    for _ in range(20):
        chosen = rng.sample(range(len(lex.secrets)), rng.randint(1, sb.PROBES_ABOVE))
        within = sum(1 << j for j in chosen)
        best_candidate = min(expected_left(lex, within, lex.universe[j]) for j in chosen)
        assert all(expected_left(lex, within, w) >= best_candidate for w in every)
