"""`bench polls`: whole tournaments in simulated time, following the poll advice."""

from __future__ import annotations

from api.cli.bench.polls import Tally, cost_ratio, play
from api.http import polling
from api.loadtest.prices import PriceModel
from core.timing import Timing


def test_simulated_tournament_follows_the_advice_and_sees_every_row_within_a_second() -> None:
    tally = Tally()
    rtt = 40
    play(7, Timing(turn_ms=3_000, intro_ms=1_000, reconnect_ms=60_000), rtt, tally)
    assert tally.rounds and tally.rounds[0] >= 3  # a whole tournament
    assert tally.staleness and tally.notice
    # The opponent's guesses are seen within about a second (the quiet start of a 3 s turn is
    # shorter than that): a poll's advice counts from its answer, a round trip after the last.
    assert max(tally.staleness) <= polling.OPPONENT_MS + 2 * rtt
    assert tally.polls["opponent's turn"] > tally.polls["own turn"]
    assert tally.polls["intro"] >= tally.rounds[0] * 2  # about one per player still in
    measured, naive = cost_ratio(tally, PriceModel())
    assert naive > measured > 0
