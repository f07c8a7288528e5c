"""How the simulator models people (docs/simulator.md): their pace and how often they solve.

`core.simulation` plays tournaments of such people; house bots (core.bots) keep their pace and
solve as often as the people of their rating, so that they fit among them (D18).
"""

from __future__ import annotations

from dataclasses import dataclass

# Probability that a guess solves the word when `i` guesses are already on the shared board.
DEFAULT_HAZARD = (0.01, 0.05, 0.16, 0.30) + (0.35,) * 8

# A person of rating R solves with the hazard's odds multiplied by 10^((R - 1000) / this), so
# that one person of R among seven of 1000 scores what D5 expects of R (docs/simulator.md).
STRENGTH_SCALE = 500.0


@dataclass(frozen=True, slots=True)
class PlayerModel:
    think_median_s: float = 15.0
    think_sigma: float = 0.4
    solve_hazard: tuple[float, ...] = DEFAULT_HAZARD

    def hazard_at(self, rating: float) -> tuple[float, ...]:
        """The solve hazard of a person of `rating` (the model's own at 1000)."""
        odds = float(10.0 ** ((rating - 1000.0) / STRENGTH_SCALE))
        return tuple(h * odds / (1.0 - h + h * odds) for h in self.solve_hazard)
