"""The simulator's shortcut (`record_duels`) must equal playing every turn through `guess`."""

from __future__ import annotations

import random

import pytest

from core import serialization
from core import tournament as tm
from core.simulation import NEVER_MS, SIM_WORDS, PlayerModel, play_duel
from core.timing import Timing


def _replayed(t: tm.Tournament, duels: list) -> tm.Tournament:
    turns = sorted(
        (turn.at, duel.id, row, turn)
        for duel in duels
        for row, turn in enumerate(duel.turns)
        if turn.word is not None
    )
    for at, _, row, turn in turns:
        t, _ = tm.guess(t, turn.player, row, turn.word, at, SIM_WORDS)
    end = max(d.ended_at for d in duels)
    t, _ = tm.advance(t, end, SIM_WORDS)
    return t


@pytest.mark.parametrize("seed", range(12))
def test_d10_record_duels_equals_turn_by_turn_play(seed: int) -> None:
    rng = random.Random(seed)
    seats = [tm.Seat(f"p{i}", f"P{i}", 1000 + 10 * i) for i in range(8)]
    t, _ = tm.start("t", "sim", seats, 0, rng, SIM_WORDS, Timing(reconnect_ms=NEVER_MS))
    while t.finished_at is None:
        duels = [play_duel(d, rng, PlayerModel()) for d in t.rounds[-1].duels]
        shortcut, _ = tm.record_duels(t, duels, SIM_WORDS)
        by_turns = _replayed(t, duels)
        assert serialization.to_dict(shortcut) == serialization.to_dict(by_turns)
        t = shortcut


def test_record_duels_rejects_a_rewritten_duel() -> None:
    rng = random.Random(3)
    seats = [tm.Seat(f"p{i}", f"P{i}", 1000) for i in range(8)]
    t, _ = tm.start("t", "sim", seats, 0, rng, SIM_WORDS, Timing(reconnect_ms=NEVER_MS))
    duels = [play_duel(d, rng, PlayerModel()) for d in t.rounds[-1].duels]
    forged = tm.evolve(duels[0], secret=("z",) * len(duels[0].secret))
    with pytest.raises(ValueError, match="continuation"):
        tm.record_duels(t, [forged, *duels[1:]], SIM_WORDS)
