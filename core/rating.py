"""R15–R17, D5: the final place counts as a duel against each of the other players."""

from __future__ import annotations

import math
from collections.abc import Mapping

START_RATING = 1000  # R15
K_PER_OPPONENT = 50 / 7  # D5


def expected(own: int, other: int) -> float:
    return 1.0 / (1.0 + float(10.0 ** ((other - own) / 400.0)))


def round_half_away(x: float) -> int:
    # Not floor(|x| + 0.5): that sum itself rounds, e.g. 0.49999999999999994 + 0.5 == 1.0.
    # The fraction |x| - floor(|x|) of a float is exact.
    whole = math.floor(abs(x))
    if abs(x) - whole >= 0.5:
        whole += 1
    return whole if x >= 0 else -whole


def change(player: str, ratings: Mapping[str, int], places: Mapping[str, int]) -> int:
    """Rating change of `player` once its place is fixed.

    `ratings` are everyone's ratings at the start (D5); `places` holds every fixed place. A
    player without a place is still in the tournament and so finishes above `player`.
    """
    own_place = places[player]
    own = ratings[player]
    total = 0.0
    for other, rating in ratings.items():
        if other == player:
            continue
        other_place = places.get(other)
        if other_place is None or other_place < own_place:
            actual = 0.0
        elif other_place == own_place:
            actual = 0.5
        else:
            actual = 1.0
        total += actual - expected(own, rating)
    # Multiply before dividing: 3.5 * 50 / 7 is exactly 25.0, so R17's table comes out exact.
    return round_half_away(total * 50 / 7)
