"""R3, D18: the simulator with real words (core.simulation_words): its people play like the
abstract model, the model scales with rating as D5 expects, and a house bot places among people
of its rating like one of them without making rounds longer."""

from __future__ import annotations

import math
import random
import statistics

from core import simulation
from core.simulation_words import play_tournament
from tests.core.helpers import real_words

EN = real_words("en")


def test_r3_people_who_play_real_words_play_like_the_abstract_model() -> None:
    real = [play_tournament(random.Random(i), EN, [1000] * 8) for i in range(100)]
    model = [simulation.play_tournament(random.Random(i)) for i in range(100)]
    for runs in (real, model):
        assert 8 <= statistics.median(o.rounds for o in runs) <= 10
        assert 15 <= statistics.median(o.minutes for o in runs) <= 20
    gap = statistics.median(o.minutes for o in real) - statistics.median(o.minutes for o in model)
    assert abs(gap) < 1.5
    for o in real:
        assert sorted(o.places.values())[0] == 1


def test_d5_the_people_model_scales_with_rating_as_elo_expects() -> None:
    rng = random.Random(3)
    for rating in (800, 1200):
        runs = [play_tournament(rng, EN, [rating] + [1000] * 7) for _ in range(200)]
        score = statistics.fmean(
            sum(
                1.0 if o.places["h0"] < v else 0.5 if o.places["h0"] == v else 0.0
                for k, v in o.places.items()
                if k != "h0"
            )
            / 7
            for o in runs
        )
        implied = 400 * math.log10(score / (1 - score))
        assert abs(implied - (rating - 1000)) < 100


def test_d18_a_house_bot_places_among_people_of_its_rating_like_one_of_them() -> None:
    rng = random.Random(4)
    places = [play_tournament(rng, EN, [1000] * 7, [1000]).places["b0"] for _ in range(300)]
    assert 4.0 < statistics.fmean(places) < 5.0  # an average player: 4.5


def test_d18_house_bots_make_no_round_longer() -> None:
    """A round waits for its slowest duel: compare rounds of 4 duels (every round 1)."""

    def first_rounds(bots: int) -> list[float]:
        rng = random.Random(5)
        runs = [play_tournament(rng, EN, [1000] * (8 - bots), [1000] * bots) for _ in range(150)]
        return [o.round_seconds[0] for o in runs]

    people, with_bots = first_rounds(0), first_rounds(7)
    assert statistics.fmean(with_bots) < 1.1 * statistics.fmean(people)
