"""D19's thresholds by simulation, at a small scale (the full figures: `wordle-tournament fairplay
simulate`, docs/benchmarks.md): simulated people are not flagged over 20 tournaments, a client
that always plays the solver's best word is flagged within 5."""

from __future__ import annotations

import random

import pytest

from core.fairplay import players as pl
from core.fairplay import simulation as sim
from core.fairplay import verdict
from core.fairplay.record import BLOCK
from tests.core.helpers import real_words

LEXICONS = [
    real_words(lang).lexicon(n)  # type: ignore[misc]
    for lang, n in (("en", 5), ("de", 4), ("ru", 6), ("uz", 5))
]


@pytest.fixture(scope="module")
def pools() -> dict[str, sim.Pool]:
    rng, coach = random.Random(5), random.Random(6)
    found = dict(sim.people_pools(LEXICONS, 240, rng, coach))
    found[pl.SOLVER.name] = sim.pool(pl.SOLVER, LEXICONS, 80, rng, coach)
    return found


@pytest.fixture(scope="module")
def counts(pools: dict[str, sim.Pool]) -> dict[str, list[int]]:
    rng = random.Random(7)
    return {name: sim.duels_per_tournament(rng, 60, *p.outcome) for name, p in pools.items()}


def test_d19_simulated_duels_tell_people_from_a_solver(pools: dict[str, sim.Pool]) -> None:
    solver_best, solver_near = sim.rates(pools[pl.SOLVER.name])
    for person in pl.PEOPLE:
        best, near = sim.rates(pools[person.name])
        assert best < 0.1 and best + near < 0.25
        assert pools[person.name].total.rows > 100
    assert solver_best > 0.7 and solver_best + solver_near > 0.9
    assert pools[pl.SOLVER.name].outcome[0] > 0.5  # it wins more than half its duels


def test_d19_duels_per_tournament_grow_with_the_duels_won() -> None:
    rng = random.Random(2)
    even = sim.duels_per_tournament(rng, 80)
    winner = sim.duels_per_tournament(rng, 80, won=0.9)
    assert min(even) >= 3 and max(winner) <= 12
    assert sum(winner) / len(winner) > sum(even) / len(even) + 1


def test_d19_people_are_not_flagged_and_a_solver_is_within_5_tournaments(
    pools: dict[str, sim.Pool], counts: dict[str, list[int]]
) -> None:
    rng = random.Random(8)
    th = verdict.DEFAULT
    for person in pl.PEOPLE:
        found = sim.careers(pools[person.name], 400, counts[person.name], sim.CAREER, rng, th)
        assert sum(c.flagged_after is not None for c in found) == 0
    solver = pl.SOLVER.name
    found = sim.careers(pools[solver], 200, counts[solver], 4 * sim.CAREER, rng, th)
    flagged = [c.flagged_after for c in found]
    assert None not in flagged
    assert sum(f is not None and f <= sim.WITHIN for f in flagged) >= 0.98 * len(found)
    assert all("choices" in c.reasons for c in found)


def test_d19_thresholds_chosen_from_the_pools_and_ville(pools: dict[str, sim.Pool]) -> None:
    people = [pools[m.name] for m in pl.PEOPLE]
    chosen = sim.references(people, pools[pl.SOLVER.name])
    assert chosen.best_ref >= max(sim.rates(p)[0] for p in people)
    assert chosen.solver_best <= sim.rates(pools[pl.SOLVER.name])[0]
    wb, _, wo = chosen.weights
    assert wb > 0 > wo
    # the code's evidence is Ville's bound for the target, over the window starts of a career
    starts = -(-sim.CAREER // BLOCK)
    assert starts * 10**-verdict.DEFAULT.evidence * sim.SAFETY <= sim.TARGET
    assert sim.evidence_for() == verdict.DEFAULT.evidence


def test_d19_a_person_who_turns_to_a_solver_is_flagged_after_the_switch(
    pools: dict[str, sim.Pool], counts: dict[str, list[int]]
) -> None:
    rng = random.Random(9)
    medium = pl.MEDIUM.name
    honest = sim.Stage(pools[medium], counts[medium], 30)
    solver = pl.SOLVER.name
    found = sim.careers(pools[solver], 60, counts[solver], 40, rng, before=honest)
    flagged = [c.flagged_after for c in found]
    assert None not in flagged and 0 not in flagged  # never during the honest part
    assert max(f for f in flagged if f is not None) <= BLOCK + sim.WITHIN
