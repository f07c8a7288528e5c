"""D3 (standard Wordle feedback) and D12 (tiles, not code points)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.feedback import is_solved, score


@pytest.mark.parametrize(
    ("secret", "guess", "marks"),
    [
        ("abbey", "kebab", "-YGYY"),
        ("abbey", "babes", "YYGG-"),
        ("abbey", "abyss", "GGY--"),
        ("those", "geese", "---GG"),
        ("dread", "added", "YY-YG"),
        ("bossy", "sassy", "--GGG"),
        ("sales", "crass", "--YYG"),
        ("surer", "seven", "G--G-"),
        ("crane", "crane", "GGGGG"),
        ("crane", "moist", "-----"),
    ],
)
def test_d3_feedback_vectors(secret: str, guess: str, marks: str) -> None:
    assert score(tuple(secret), tuple(guess)) == marks


def test_d3_exact_positions_are_marked_before_present_ones() -> None:
    # The second 'e' is exact, so the first 'e' finds no unmatched copy left.
    assert score(tuple("abcde"), tuple("eeeee")) == "----G"
    # Left to right: only the first of the extra copies is present.
    assert score(tuple("eabcd"), tuple("xeeex")) == "-Y---"


def test_d3_solved_only_when_all_correct() -> None:
    assert is_solved("GGGG")
    assert not is_solved("GGYG")
    assert not is_solved("GGG-")


def test_d3_lengths_must_match() -> None:
    with pytest.raises(ValueError):
        score(tuple("abc"), tuple("abcd"))


def test_d12_multi_character_tiles_are_single_letters() -> None:
    secret = ("oʻ", "r", "d", "a", "k")
    assert score(secret, ("oʻ", "r", "d", "a", "k")) == "GGGGG"
    assert score(secret, ("k", "oʻ", "r", "d", "a")) == "YYYYY"
    # 'o' is not the tile 'oʻ', and 'sh' is one tile, not 's' + 'h'.
    assert score(secret, ("o", "r", "sh", "a", "k")) == "-G-GG"
    assert score(("sh", "a", "h", "a", "r"), ("s", "h", "a", "h", "sh")) == "-YY-Y"


tiles = st.sampled_from(["a", "b", "c", "sh", "oʻ", "ё"])


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(*[st.tuples(tiles, tiles)] * n)))
def test_d3_marks_never_credit_more_copies_than_the_secret_has(pairs: tuple) -> None:
    secret = tuple(s for s, _ in pairs)
    guess = tuple(g for _, g in pairs)
    marks = score(secret, guess)
    assert len(marks) == len(secret)
    assert is_solved(marks) == (secret == guess)
    for i, m in enumerate(marks):
        assert (m == "G") == (secret[i] == guess[i])
    for tile in set(guess):
        credited = sum(1 for g, m in zip(guess, marks, strict=True) if g == tile and m != "-")
        assert credited == min(guess.count(tile), secret.count(tile))
