"""Who the N concurrent players are, and what each does in a cycle: the capacity model's
assumptions, in one place (docs/capacity.md discusses each one).

A player's cycle: queue (or a friend group's start), play a tournament until out or finished
(watching the rest in a group), look at the results (history; what else exists then), pause, and
queue again. A session is a few cycles; a new session is either a returning player (their token
in the browser: GET /v1/me) or a new one (POST /v1/players).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

# Share of players per word language: most in English, then the big European languages.
LANGUAGE_MIX: dict[str, float] = {
    "en": 0.45,
    "es": 0.10,
    "pt": 0.08,
    "de": 0.07,
    "fr": 0.07,
    "ru": 0.06,
    "it": 0.04,
    "id": 0.04,
    "pl": 0.03,
    "nl": 0.02,
    "uk": 0.02,
    "kk": 0.01,
    "uz": 0.01,
}


@dataclass(frozen=True, slots=True)
class Population:
    languages: dict[str, float] = field(default_factory=lambda: dict(LANGUAGE_MIX))
    rating_mean: float = 1000.0
    rating_sd: float = 150.0  # of players who have played; ratings move ±25 at most per game
    new_share: float = 0.15  # of queue joins: players yet to play, at exactly 1000 (R15)
    group_share: float = 0.20  # of players, in friend groups of 8 (R22); the rest queue
    after_s: float = 12.0  # between a tournament and the next join: results, history, a pause
    cycles_per_session: float = 3.0  # tournaments a session plays
    new_player_share: float = 0.5  # of sessions: a new player (POST /v1/players)
    active_per_player: float = 10.0  # players on the 30-day leaderboards per concurrent one

    def rating(self, rng: random.Random) -> int:
        if rng.random() < self.new_share:
            return 1000
        value = rng.gauss(self.rating_mean, self.rating_sd)
        return max(100, min(3000, round(value)))

    def language(self, rng: random.Random) -> str:
        pick = rng.random()
        total = 0.0
        for code, share in self.languages.items():
            total += share
            if pick < total:
                return code
        return next(reversed(self.languages))

    def band_share(self, band: int, width: int = 200) -> float:
        """The share of queue joins whose rating falls in rating band `band`."""
        low, high = band * width, (band + 1) * width

        def cdf(x: float) -> float:
            return 0.5 * (1 + math.erf((x - self.rating_mean) / (self.rating_sd * math.sqrt(2))))

        spread = (1 - self.new_share) * (cdf(high) - cdf(low))
        return spread + (self.new_share if low <= 1000 < high else 0.0)
