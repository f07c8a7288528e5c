"""R25 (anonymous players and nicknames) and R3 (the simulator's tournament lengths)."""

from __future__ import annotations

import random
import statistics

import pytest

from core import errors, nicknames, views
from core.simulation import play_tournament
from tests.core.helpers import start


def test_r25_a_nickname_is_generated_and_valid() -> None:
    rng = random.Random(0)
    names = {nicknames.generate(rng) for _ in range(200)}
    assert len(names) > 150
    for name in names:
        assert nicknames.validate(name) == name
    longest = max(map(len, nicknames.ADJECTIVES)) + max(map(len, nicknames.ANIMALS)) + 2
    assert longest <= nicknames.MAX_LENGTH  # every possible generated name fits


def test_r25_generation_is_deterministic_given_the_rng() -> None:
    assert nicknames.generate(random.Random(5)) == nicknames.generate(random.Random(5))


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("  Quick   Fox ", "Quick Fox"),
        ("Zoë_99", "Zoë_99"),
        ("Zoe\u0308", "Zoë"),  # stored in NFC
        ("Ёжик-1.2", "Ёжик-1.2"),
        ("abc", "abc"),
        ("tab\tand\nnewline", "tab and newline"),
        ("a" * 20, "a" * 20),
    ],
)
def test_r25_players_may_change_their_nickname(raw: str, stored: str) -> None:
    assert nicknames.validate(raw) == stored


@pytest.mark.parametrize(
    "bad", ["ab", "a" * 21, "   ", "123", "hi!", "smile🙂", "a<b>c", "x\u200by"]
)
def test_r25_invalid_nicknames_are_refused(bad: str) -> None:
    with pytest.raises(errors.InvalidNickname):
        nicknames.validate(bad)


def test_r25_views_show_nicknames_and_start_ratings_nothing_more() -> None:
    """Anonymous players (R25): a nickname, and the rating everyone started with (D5, shown so
    that results read rating before → after); no contact times, nothing else (whether a player
    who left was away or chose to, `left_reason`, tells no time)."""
    t = start(ratings=[1000, 1010, 990, 1200, 1000, 1000, 1000, 1000])
    players = views.tournament_view(t, "p0", 0)["players"]
    assert [p["nickname"] for p in players] == [p.nickname for p in t.players]
    assert [p["rating"] for p in players] == [p.rating for p in t.players]
    allowed = {"id", "nickname", "bot", "lives", "status", "place", "rating_change", "rating"}
    assert all(set(p) == allowed | {"out_round", "provisional", "left_reason"} for p in players)


def test_r3_simulated_tournaments_last_8_to_10_rounds_and_15_to_20_minutes() -> None:
    rng = random.Random(2024)
    outcomes = [play_tournament(rng) for _ in range(300)]
    rounds = [o.rounds for o in outcomes]
    minutes = [o.minutes for o in outcomes]
    assert 8 <= statistics.median(rounds) <= 10
    assert 15 <= statistics.median(minutes) <= 20
    typical = sum(8 <= r <= 10 for r in rounds) / len(rounds)
    assert typical > 0.7  # the reference simulation has 84 % in 8–10
    for o in outcomes:
        assert sorted(o.places)[0] == 1
        assert o.skips + o.guesses > 0
