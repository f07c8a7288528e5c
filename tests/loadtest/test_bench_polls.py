"""`bench polls`: whole tournaments in simulated time, following the poll advice."""

from __future__ import annotations

import argparse

import pytest

from api.cli.bench.poll_what_if import VARIANTS, applied
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


def _args(**changed: object) -> argparse.Namespace:
    """`bench polls`'s arguments: one short tournament, unless `changed`."""
    args = {
        "tournaments": 1,
        "turn_seconds": 3.0,
        "intro_seconds": 1.0,
        "rtt_ms": "20",
        "seed": 3,
        "people": False,
        "units": None,
        "what_if": False,
    }
    return argparse.Namespace(**{**args, **changed})


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
    assert run(_args(people=True)) == 0
    out = capsys.readouterr().out
    assert "players thinking like people" in out and "polls per player-minute" in out


def test_several_round_trips_are_played_with_the_same_seeds(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(_args(rtt_ms="20,200")) == 0
    out = capsys.readouterr().out
    assert "== round trip 20 ms" in out and "== round trip 200 ms" in out
    table = out.split("round trip  polls/player-min")[1].strip().splitlines()
    assert [line.split()[0] for line in table[1:]] == ["20", "200"]
    with pytest.raises(ValueError):
        round_trips("20,-1")


def test_what_if_plays_the_same_tournaments_under_each_variant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/benchmarks.md's table of what a larger saving would take: each variant changes what
    it says (fewer polls, a later new round, a cheaper request), and only inside its block."""
    assert run(_args(turn_seconds=30.0, intro_seconds=6.0, what_if=True)) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {
        v.name: lines[lines.index(next(x for x in lines if x.startswith(v.name)))] for v in VARIANTS
    }

    def figures(name: str) -> list[float]:
        cells = rows[name][47:].replace("ms", "").replace("(", "").replace(")", "").split()
        return [float(c.rstrip("%×")) for c in cells]

    base = figures("the service's advice")
    slow = figures("waiting players poll every 3 s")
    assert slow[0] < base[0] and slow[3] > base[3] and slow[5] > base[5]  # polls, new round, ratio
    assert figures("no per-request gateway charge")[5] > base[5]
    tally = Tally()
    play(3000, Timing(), 20, tally)
    measured, naive = cost_ratio(tally, PriceModel(), Units())
    assert base[5] == pytest.approx(naive / measured, abs=0.005)  # the advice as it is


def test_a_variant_applies_only_inside_its_block() -> None:
    contact = next(v for v in VARIANTS if v.contact_ms is not None)
    with applied(contact), applied(VARIANTS[2]):
        assert Timing().contact_interval_ms == contact.contact_ms
        assert VARIANTS[2].advice["ROUND_EVERY_MS"] == polling.ROUND_EVERY_MS
    assert Timing().contact_interval_ms == 10_000
    assert polling.ROUND_EVERY_MS == polling.EVERY_MS
    with pytest.raises(RuntimeError), applied(VARIANTS[1]):
        raise RuntimeError("a variant's tournament failed")
    assert polling.ROUND_EVERY_MS == polling.EVERY_MS
