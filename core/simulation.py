"""R3: a simulator that plays whole tournaments through core with modelled players.

The player model (documented in docs/simulator.md):
- Thinking time per turn is log-normal with median `think_median_s` and shape `think_sigma`.
  A turn whose thinking time reaches the turn limit times out and is skipped (R11).
- A player who plays a guess solves the word with a probability that depends on how many
  guesses are already on the shared board (`solve_hazard`): both players' rows inform the guess.
- Every simulated player is equally skilled, as in R3's reference simulation, and nobody
  disconnects.

Each duel is played turn by turn with `core.duel`; each round's finished duels go back to
`core.tournament`, which takes lives, fixes places and ratings and pairs the next round. The
simulated language accepts any word; secrets are random strings of a 20-tile alphabet.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from dataclasses import dataclass

from core import duel as dl
from core import tournament as tm
from core.duel import Word

# Re-exported: the people the simulator plays with are modelled in core/people.py.
from core.people import DEFAULT_HAZARD as DEFAULT_HAZARD
from core.people import PlayerModel as PlayerModel
from core.timing import Timing
from core.words import WordSource

_ALPHABET = "abcdefghijklmnoprstu"
NEVER_MS = 10**12


@dataclass(frozen=True, slots=True)
class Outcome:
    rounds: int
    minutes: float  # from the first intro to the last duel's end: what a finalist plays
    guesses: int
    skips: int
    draws: int
    places: tuple[int, ...]
    rating_changes: tuple[int, ...]


def _random_word(length: int, rng: random.Random, exclude: Collection[Word]) -> Word:
    while True:
        word = tuple(rng.choices(_ALPHABET, k=length))
        if word not in exclude:
            return word


SIM_WORDS = WordSource(accepts=lambda word: True, draw=_random_word)


def _wrong_guess(secret: Word) -> Word:
    # Any accepted word other than the secret: the model does not read the marks.
    return ("v" if secret[0] != "v" else "w", *secret[1:])


def play_duel(duel: dl.Duel, rng: random.Random, model: PlayerModel) -> dl.Duel:
    """Play a duel to its end: each turn is a timeout, a miss or the solving guess."""
    mu = math.log(model.think_median_s)
    sigma = model.think_sigma
    turn_ms = duel.turn_ms
    limit_s = turn_ms / 1000
    hazard = model.solve_hazard
    last = len(hazard) - 1
    secret = duel.secret
    miss = _wrong_guess(secret)
    gauss, uniform, exp = rng.gauss, rng.random, math.exp
    guessed = 0
    started = duel.turn_started_at
    while duel.ended_at is None:
        think = exp(mu + sigma * gauss())  # log-normal; gauss() is the fastest sampler
        if think >= limit_s:
            started += turn_ms
            duel = dl.expire(duel, started)
            continue
        word = secret if uniform() < hazard[guessed if guessed < last else last] else miss
        started += int(think * 1000)
        duel = dl.play(duel, duel.players[len(duel.turns) % 2], word, started)
        guessed += 1
    return duel


def play_tournament(
    rng: random.Random, model: PlayerModel | None = None, timing: Timing | None = None
) -> Outcome:
    """Play one tournament from the first intro to its winner."""
    model = model or PlayerModel()
    timing = timing or Timing(reconnect_ms=NEVER_MS)
    seats = [tm.Seat(f"p{i}", f"Player {i}", 1000) for i in range(8)]
    t, _ = tm.start("sim", "sim", seats, 0, rng, SIM_WORDS, timing)
    while t.finished_at is None:
        duels = [play_duel(d, rng, model) for d in t.rounds[-1].duels]
        t, _ = tm.record_duels(t, duels, SIM_WORDS)
    guesses = skips = draws = 0
    for rnd in t.rounds:
        for duel in rnd.duels:
            draws += duel.winner is None
            for turn in duel.turns:
                if turn.word is None:
                    skips += 1
                else:
                    guesses += 1
    return Outcome(
        rounds=len(t.rounds),
        minutes=(t.finished_at - t.created_at) / 60_000,
        guesses=guesses,
        skips=skips,
        draws=draws,
        places=tuple(p.place or 0 for p in t.players),
        rating_changes=tuple(p.rating_change or 0 for p in t.players),
    )
