"""R23, R24, D12, D13: languages, secret lengths, tiles and never-repeated secrets."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from core import errors, lobby, serialization
from core import tournament as tm
from core.words import WORD_LENGTHS
from tests.core.helpers import FakeWords, check_invariants, play_out, start

LANGUAGES = ("en", "id", "de", "es", "fr", "it", "nl", "uz", "pl", "pt", "kk", "ru", "uk")


def test_r23_thirteen_languages_each_lobby_plays_one() -> None:
    assert len(set(LANGUAGES)) == 13
    lobbies = [lobby.seat(lobby.Lobby(f"l-{c}", c, 0), f"p-{c}", 1000, c) for c in LANGUAGES]
    for code in LANGUAGES:
        assert lobby.choose(lobbies, 1000, code) == next(
            lb for lb in lobbies if lb.language == code
        )
    for code in LANGUAGES:  # the tournament keeps its lobby's language
        t = start(language=code)
        assert serialization.from_dict(serialization.to_dict(t)).language == code


def test_r24_secret_length_is_drawn_per_duel_4_5_or_6_with_equal_probability() -> None:
    assert WORD_LENGTHS == (4, 5, 6)
    lengths = Counter(len(d.secret) for seed in range(300) for d in start(seed=seed).round.duels)
    assert set(lengths) == {4, 5, 6}
    total = sum(lengths.values())  # 1200 duels: each length about 400 of them
    assert all(abs(n - total / 3) < 0.12 * total / 3 for n in lengths.values()), lengths
    mixed = sum(len({len(d.secret) for d in start(seed=s).round.duels}) > 1 for s in range(50))
    assert mixed > 40  # lengths vary between the duels of one round


def test_r24_every_pair_gets_a_different_word() -> None:
    for seed in range(50):
        secrets = [d.secret for d in start(seed=seed).round.duels]
        assert len(set(secrets)) == len(secrets)


def test_d13_no_secret_is_used_twice_in_a_tournament(words: FakeWords) -> None:
    fake = words
    t, _ = play_out(start(seed=20, words=fake.source), words=fake.source)
    secrets = [d.secret for r in t.rounds for d in r.duels]
    assert len(secrets) == len(set(secrets)) > 8
    # Every draw excluded every secret drawn before it in this tournament.
    for i, (_, exclude) in enumerate(fake.draws):
        assert set(secrets[:i]) <= exclude
    check_invariants(t)


def test_d13_a_small_list_is_used_up_without_repeats() -> None:
    # With 20 words of each length, drawing without exclusion would repeat almost surely.
    small = {n: [(chr(97 + i),) * n for i in range(20)] for n in WORD_LENGTHS}
    fake = FakeWords(secrets=small)
    for seed in range(10):
        t, _ = play_out(start(seed=seed, words=fake.source), words=fake.source)
        secrets = [d.secret for r in t.rounds for d in r.duels]
        assert len(secrets) == len(set(secrets))


TILES = ("oʻ", "gʻ", "sh", "ch", "a", "o", "r", "k")  # Uzbek Latin: oʻ, gʻ, sh, ch are one tile
UZ_WORDS = {
    n: [tuple(TILES[(i + 3 * k) % 8] for k in range(n)) for i in range(8)] for n in WORD_LENGTHS
}


def test_d12_word_length_is_the_number_of_tiles() -> None:
    fake = FakeWords(secrets=UZ_WORDS)
    t = start(seed=22, words=fake.source, language="uz")
    d = t.round.duels[0]
    assert any(len(tile) > 1 for tile in d.secret)
    code_points = tuple("".join(d.secret))
    with pytest.raises(errors.WrongLength) as e:
        tm.guess(t, d.to_play, 0, code_points, d.starts_at, fake.source)
    assert (e.value.expected, e.value.given) == (len(d.secret), len(code_points))
    won, _ = tm.guess(t, d.to_play, 0, d.secret, d.starts_at, fake.source)
    assert won.round.duels[0].winner == d.to_play
    assert won.round.duels[0].turns[0].marks == "G" * len(d.secret)
    data = json.loads(json.dumps(serialization.to_dict(won)))
    assert data["r"][0][5][0][2] == list(d.secret)  # stored as a list of tiles
    assert serialization.from_dict(data) == won
