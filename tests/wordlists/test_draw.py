import random

import pytest

from wordlists import LANGUAGES, LENGTHS, UnknownLanguage, WordlistError, draw_secret, is_accepted
from wordlists.store import secret_words


def test_draw_is_deterministic_for_a_seed() -> None:
    for code in LANGUAGES:
        first = [draw_secret(code, n, random.Random(7)) for n in LENGTHS]
        again = [draw_secret(code, n, random.Random(7)) for n in LENGTHS]
        assert first == again
        for n, word in zip(LENGTHS, first, strict=True):
            assert len(word) == n
            assert word in secret_words(code, n)
            assert is_accepted(code, word)


def test_draw_skips_excluded_words() -> None:
    rng = random.Random(1)
    used: set[tuple[str, ...]] = set()
    for _ in range(300):
        word = draw_secret("en", 5, rng, exclude=used)
        assert word not in used
        used.add(word)


def test_draw_when_almost_everything_is_excluded() -> None:
    secrets = secret_words("es", 4)
    keep = secrets[123]
    rest = [w for w in secrets if w != keep]
    assert draw_secret("es", 4, random.Random(3), exclude=rest) == keep
    with pytest.raises(WordlistError):
        draw_secret("es", 4, random.Random(3), exclude=secrets)


def test_draw_accepts_lists_of_tiles_in_exclude() -> None:
    word = draw_secret("de", 6, random.Random(5))
    other = draw_secret("de", 6, random.Random(5), exclude=[word])
    assert other != word


@pytest.mark.parametrize("length", [3, 7, 0])
def test_draw_rejects_other_lengths(length: int) -> None:
    with pytest.raises(WordlistError):
        draw_secret("en", length, random.Random(0))


def test_unknown_language() -> None:
    with pytest.raises(UnknownLanguage):
        draw_secret("xx", 5, random.Random(0))
    with pytest.raises(UnknownLanguage):
        is_accepted("xx", ("a", "b", "c", "d"))
