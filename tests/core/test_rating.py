"""R15–R17, D5: the final place as a duel against each of the other seven players."""

from __future__ import annotations

import math
import random
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import rating
from core import tournament as tm
from core.events import PlaceFixed
from tests.core.helpers import (
    PIDS,
    R17_TABLE,
    WORDS,
    check_invariants,
    expected_change,
    play_out,
    play_round,
    start,
)
from tests.core.helpers import round_half_away as reference_round

EQUAL = dict.fromkeys(PIDS, 1000)


def test_r15_everyone_starts_at_1000() -> None:
    assert rating.START_RATING == 1000


def test_r15_place_counts_as_a_duel_against_each_other_player() -> None:
    # p0 alone first; p1, p2 share 2nd; the rest share 4th.
    places = {"p0": 1, "p1": 2, "p2": 2, **dict.fromkeys(PIDS[3:], 4)}
    # p1: wins against five, a draw against p2, a loss against p0 -> 5.5 - 3.5 = 2.
    assert rating.change("p1", EQUAL, places) == round(2 * 50 / 7) == 14
    # p3: loses to three, draws with four -> 2 - 3.5 = -1.5.
    assert rating.change("p3", EQUAL, places) == -11
    assert rating.change("p0", EQUAL, places) == 25


def test_r16_beating_higher_rated_players_earns_more() -> None:
    places = dict(zip(PIDS, range(1, 9), strict=True))
    strong_field = {**dict.fromkeys(PIDS, 1200), "p0": 1000}
    weak_field = {**dict.fromkeys(PIDS, 800), "p0": 1000}
    assert rating.change("p0", strong_field, places) > 25 > rating.change("p0", weak_field, places)
    last = {"p7": 8, **{p: 1 for p in PIDS[:7]}}
    assert rating.change("p7", {**weak_field, "p7": 1000}, last) < -25
    assert rating.change("p7", {**strong_field, "p7": 1000}, last) > -25


def test_r16_change_is_applied_when_the_place_is_fixed() -> None:
    t, events = play_out(start(seed=9))
    fixed = [e for e in events if isinstance(e, PlaceFixed)]
    assert sorted(e.player for e in fixed) == sorted(PIDS)  # once each
    for e in fixed:
        p = t.player(e.player)
        assert (e.place, e.rating_change, e.new_rating) == (
            p.place,
            p.rating_change,
            p.rating + (p.rating_change or 0),
        )
        assert p.rating == 1000  # the stored rating stays the one at the start (D5)


def test_r17_equal_ratings_distinct_places_give_the_table() -> None:
    places = dict(zip(PIDS, range(1, 9), strict=True))
    assert {places[p]: rating.change(p, EQUAL, places) for p in PIDS} == R17_TABLE
    assert R17_TABLE == {1: 25, 2: 18, 3: 11, 4: 4, 5: -4, 6: -11, 7: -18, 8: -25}


def test_r17_full_tournaments_give_place_consistent_changes() -> None:
    for seed in range(30):
        rng = random.Random(seed)
        t, _ = play_out(start(seed=seed), lambda d, rng=rng: rng.choice(d.players))
        check_invariants(t)  # every change follows from the places (D5)
        by_place: dict[int, set[int]] = {}
        for p in t.players:
            by_place.setdefault(p.place or 0, set()).add(p.rating_change or 0)
        assert all(len(v) == 1 for v in by_place.values())  # same place, same change
        ordered = [next(iter(by_place[k])) for k in sorted(by_place)]
        assert ordered == sorted(ordered, reverse=True)  # a better place never earns less


def test_r17_a_played_tournament_with_eight_distinct_places_gives_the_table() -> None:
    """24 lives cannot produce one elimination per round by duels alone, so distinct places need
    leavers: each round the weakest player in a duel leaves at the start of the intro."""
    t = start(seed=12)
    while not t.finished:
        weakest = min(
            (p for d in t.round.duels for p in map(t.player, d.players)),
            key=lambda p: (p.lives, p.id),
        )
        t, _ = tm.leave(t, weakest.id, t.round.intro_at, WORDS)
        if not t.finished:
            lives = {p.id: p.lives for p in t.players}
            t, _, _ = play_round(t, lambda d, lives=lives: max(d.players, key=lives.__getitem__))
    check_invariants(t)
    assert sorted(p.place or 0 for p in t.players) == list(range(1, 9))
    assert {p.place: p.rating_change for p in t.players} == R17_TABLE


@settings(max_examples=50, deadline=None)
@given(st.permutations(range(1, 9)))
def test_r17_holds_for_any_assignment_of_distinct_places(order: list[int]) -> None:
    places = dict(zip(PIDS, order, strict=True))
    assert {places[p]: rating.change(p, EQUAL, places) for p in PIDS} == R17_TABLE


@pytest.mark.parametrize(
    ("x", "rounded"),
    [(0.5, 1), (-0.5, -1), (1.5, 2), (2.5, 3), (-2.5, -3), (0.49, 0), (-0.51, -1), (0.0, 0)],
)
def test_d5_halves_round_away_from_zero(x: float, rounded: int) -> None:
    assert rating.round_half_away(x) == rounded


halves = st.integers(-(10**6), 10**6).map(lambda n: n + 0.5)
near_halves = st.tuples(halves, st.sampled_from([-math.inf, math.inf])).map(
    lambda h: math.nextafter(*h)
)


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=-1e15, max_value=1e15, allow_nan=False) | halves | near_halves)
def test_d5_round_half_away_matches_exact_decimal_rounding(x: float) -> None:
    assert rating.round_half_away(x) == reference_round(Decimal(x))


def test_d5_round_half_away_near_halves() -> None:
    below_half = 0.49999999999999994  # the largest float below 0.5
    assert rating.round_half_away(below_half) == 0
    assert rating.round_half_away(-below_half) == 0
    assert rating.round_half_away(2.0**52 + 1) == 2**52 + 1


def test_d5_ratings_at_the_start_are_used_whatever_the_order_of_fixing() -> None:
    ratings = dict(zip(PIDS, [1000, 1100, 900, 1250, 980, 1010, 1400, 700], strict=True))
    final = {"p0": 1, "p1": 2, "p2": 3, "p3": 3, "p4": 5, "p5": 6, "p6": 7, "p7": 7}
    early = {p: final[p] for p in ("p6", "p7")}  # out first, when nobody else had a place
    for p in ("p6", "p7"):
        assert rating.change(p, ratings, early) == rating.change(p, ratings, final)
    for p in PIDS:
        assert rating.change(p, ratings, final) == expected_change(p, ratings, final)


def test_d5_unequal_ratings_in_a_played_tournament() -> None:
    ratings = [1000, 1100, 900, 1250, 980, 1010, 1190, 812]
    t, _ = play_out(start(seed=10, ratings=ratings))
    check_invariants(t)  # changes computed from start ratings, rounded half away from zero
    changes = [p.rating_change or 0 for p in t.players]
    assert abs(sum(changes)) <= 8  # zero-sum up to rounding


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(600, 2400), min_size=8, max_size=8),
    st.lists(st.integers(1, 8), min_size=8, max_size=8),
)
def test_d5_change_matches_the_formula(ratings_list: list[int], raw_places: list[int]) -> None:
    ratings = dict(zip(PIDS, ratings_list, strict=True))
    # Competition ranking from arbitrary scores.
    places = {p: 1 + sum(o > s for o in raw_places) for p, s in zip(PIDS, raw_places, strict=True)}
    for p in PIDS:
        assert rating.change(p, ratings, places) == expected_change(p, ratings, places)
