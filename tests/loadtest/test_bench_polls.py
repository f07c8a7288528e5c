"""`bench polls`: whole tournaments in simulated time, following the poll advice."""

from __future__ import annotations

import argparse

import pytest

from api.cli.bench.polls import (
    PEOPLE,
    Tally,
    Units,
    cost_ratio,
    percentile,
    play,
    round_trips,
    run,
)
from api.http import polling
from api.loadtest.prices import PriceModel
from core.timing import Timing


def test_simulated_tournament_follows_the_advice_and_sees_most_rows_within_an_interval() -> None:
    tally = Tally()
    rtt = 40
    play(7, Timing(turn_ms=3_000, intro_ms=1_000, reconnect_ms=60_000), rtt, tally)
    assert tally.rounds and tally.rounds[0] >= 3  # a whole tournament
    assert tally.staleness and tally.notice
    # The opponent's guesses are seen within an interval (a poll's advice counts from its
    # answer, a round trip after the last one), but for the few that came in a quiet start.
    assert percentile(tally.staleness, 90) <= polling.EVERY_MS + 2 * rtt
    assert max(tally.staleness) <= 3_000 + 2 * rtt  # never later than the turn's end
    assert tally.polls["opponent's turn"] > tally.polls["own turn"]
    assert tally.touches > 0
    measured, naive = cost_ratio(tally, PriceModel(), Units())
    assert naive > measured > 0


def test_people_think_like_the_simulators_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert (PEOPLE.think_median * 30, PEOPLE.think_sigma) == (15.0, 0.4)  # docs/simulator.md
    args = argparse.Namespace(
        tournaments=1,
        turn_seconds=3.0,
        intro_seconds=1.0,
        rtt_ms="20",
        seed=3,
        people=True,
        units=None,
    )
    assert run(args) == 0
    out = capsys.readouterr().out
    assert "players thinking like people" in out and "polls per player-minute" in out


def test_several_round_trips_are_played_with_the_same_seeds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(
        tournaments=1,
        turn_seconds=3.0,
        intro_seconds=1.0,
        rtt_ms="20,200",
        seed=3,
        people=False,
        units=None,
    )
    assert run(args) == 0
    out = capsys.readouterr().out
    assert "== round trip 20 ms" in out and "== round trip 200 ms" in out
    table = out.split("round trip  polls/player-min")[1].strip().splitlines()
    assert [line.split()[0] for line in table[1:]] == ["20", "200"]
    with pytest.raises(ValueError):
        round_trips("20,-1")
