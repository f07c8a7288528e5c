"""`bench population` (D18): people arriving at random through the real service code, in
simulated time. Not a timed test: the figures it prints are checked for what they must be
whatever the machine, on a small run."""

from __future__ import annotations

import argparse

import pytest

from api.cli.bench.population import LANGUAGE_SHARES, simulate
from api.cli.bench.population import run as bench_run


def test_d18_a_person_alone_always_gets_an_intro_when_the_queue_said_with_seven_bots() -> None:
    """At one concurrent player nobody ever meets: every tournament is one person and seven
    house bots, started exactly WT_BOT_FILL_SECONDS after Play (D10: as of when it was due)."""
    row = simulate(1, arrivals=12, seed=2, warmup_s=0)
    assert row.people == 12 and row.tournaments == 12
    assert row.p50_s == row.p95_s == 15.0
    assert row.bot_share == 7 / 8 and row.shared_share == 0.0


def test_d18_more_players_meet_more_people_and_fewer_bots() -> None:
    few = simulate(10, arrivals=60, seed=3)
    many = simulate(1_000, arrivals=60, seed=3)
    assert many.bot_share < few.bot_share and many.shared_share > few.shared_share
    assert many.english_bot_share < many.bot_share  # English has the most people
    assert sum(many.languages.values()) == 60 and "en" in many.languages
    assert min(r.p50_s for r in (few, many)) >= 0  # nobody intro'd before Play
    assert sum(LANGUAGE_SHARES.values()) == pytest.approx(1.0)


def test_d18_bench_population_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(seed=1, arrivals=20, session=600.0, warmup=30.0, populations=(1, 100))
    assert bench_run(args) == 0
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [line[0] for line in lines] == ["1", "100"]
    assert "goal p95 <= 20 s at every population: worst" in out
    for line in lines:
        assert line[2] == "20"  # people counted
        assert float(line[3]) >= 15.0  # p50: the fill comes no sooner than WT_BOT_FILL_SECONDS
