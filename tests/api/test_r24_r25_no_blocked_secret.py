"""R24, R25: a duel's secret is never one of the language's blocked words (the word is shown to
both players when the duel ends), though a player may still guess one (R13)."""

from __future__ import annotations

import random

import pytest

import wordlists
from api import words
from api.service import names
from core.blocked_words import blocked_entry


class _Landing(random.Random):
    """A generator whose first draws land on the given indices, then on random ones."""

    def __init__(self, *indices: int) -> None:
        super().__init__(0)
        self.indices = list(indices)

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        return self.indices.pop(0) if self.indices else super().randrange(*args)


def test_r25_blocked_secrets_are_found_in_every_language_that_has_them() -> None:
    found = {
        (lang, n): words.unfit_secrets(lang, n)
        for lang in wordlists.LANGUAGES
        for n in wordlists.LENGTHS
    }
    assert ("c", "l", "i", "t") in found["en", 4]
    assert sum(map(len, found.values())) == 11  # docs/benchmarks.md: 11 in 6 languages
    for (lang, _), unfit in found.items():
        for word in unfit:
            assert blocked_entry("".join(word), names.blocked(lang), names.confusables())


def test_r24_a_draw_that_lands_on_a_blocked_secret_draws_again() -> None:
    secrets = wordlists.secret_words("en", 4)
    blocked = secrets.index(("c", "l", "i", "t"))
    other = next(i for i, w in enumerate(secrets) if w not in words.unfit_secrets("en", 4))
    assert wordlists.draw_secret("en", 4, _Landing(blocked)) == ("c", "l", "i", "t")  # the list
    assert words.draw("en", 4, _Landing(blocked, other), ()) == secrets[other]  # the service
    assert words.word_source("en").draw(4, _Landing(blocked, other), ()) == secrets[other]


@pytest.mark.parametrize("lang", ["en", "de", "ru"])
def test_r24_draws_stay_as_seeded_unless_they_land_on_a_blocked_word(lang: str) -> None:
    for seed in range(300):
        n = 4 + seed % 3
        plain = wordlists.draw_secret(lang, n, random.Random(seed))
        if plain not in words.unfit_secrets(lang, n):
            assert words.draw(lang, n, random.Random(seed), ()) == plain


def test_r13_a_blocked_secret_word_is_still_a_word_a_player_may_guess() -> None:
    assert wordlists.is_accepted("en", ("c", "l", "i", "t"))
