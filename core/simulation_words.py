"""R3, D18: the simulator with real words, where modelled people and house bots play together.

`core.simulation` plays R3's check with abstract people (random strings as words). To seat house
bots beside people, a duel must be played with a real language's words, so that a bot's solver
sees real rows. Here people are modelled so that their pace and solve rate are exactly those of
`core.simulation.PlayerModel`, while every word they play is a real one:

- thinking time per turn: log-normal, as in `core.simulation` (a turn that reaches the limit is
  skipped, R11);
- a played guess solves the word with the hazard of `core.simulation` (by the number of guesses
  already on the shared board), made stronger or weaker with the player's rating (`strength`);
- a guess that misses is a real word: one of the secrets the board still allows, other than the
  secret (people play words that fit what they see), or, when the board leaves only the secret,
  another secret.

House bots play as the service plays them: their moves are `core.house.move_at` and
`core.house.word` of the tournament's seed, the duel, the row and the board, the very functions
`core.tournament.advance` calls. Each round's finished duels go back through
`core.tournament.record_duels`, as in `core.simulation`.

A person's rating sets their strength (`PlayerModel.hazard_at`): a person of rating R solves
with the odds of the hazard multiplied by 10^((R − 1000) / 500), so 1000 is the standard model.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from core import duel as dl
from core import house
from core import tournament as tm
from core.bots import Skill, house_word
from core.duel import Word
from core.people import PlayerModel
from core.simulation import NEVER_MS
from core.solver.board import board_of, candidates
from core.solver.lexicon import nth
from core.timing import Timing
from core.words import WordSource


@dataclass(frozen=True, slots=True)
class Person:
    """A modelled person's thinking and solving (see the module docstring)."""

    mu: float  # log of the median thinking time, in seconds
    sigma: float
    hazard: tuple[float, ...]

    @classmethod
    def of(cls, model: PlayerModel, rating: float) -> Person:
        return cls(math.log(model.think_median_s), model.think_sigma, model.hazard_at(rating))


def _miss(duel: dl.Duel, words: WordSource, rng: random.Random) -> Word:
    assert words.lexicon is not None
    lex = words.lexicon(len(duel.secret))
    board = [(t.word, t.marks or "") for t in duel.turns if t.word is not None]
    left = candidates(lex, board)
    j = lex.bit.get(duel.secret)
    if j is not None:
        left &= ~(1 << j)
    if not left:  # only the secret is left: play another secret
        left = lex.all_secrets & ~(1 << j) if j is not None else lex.all_secrets
    return lex.universe[nth(left, rng.randrange(left.bit_count()))]


@dataclass(frozen=True, slots=True)
class Variant:
    """How the simulated house bots differ from the service's, for comparisons: `paced=False`
    plays at full strength, `style` in that style whatever the rating."""

    paced: bool = True
    style: Skill | None = None


SERVICE = Variant()


def _bot_word(duel: dl.Duel, rating: int, seed: int, words: WordSource, variant: Variant) -> Word:
    if variant == SERVICE:
        return house.word(seed, duel, rating, words)  # what core.tournament.advance plays
    assert words.lexicon is not None
    lex = words.lexicon(len(duel.secret))
    row = len(duel.turns)
    board = board_of(duel)
    return house_word(seed, duel.id, row, rating, board, lex, variant.paced, variant.style)


def play_duel(
    duel: dl.Duel,
    rng: random.Random,
    seed: int,
    people: Mapping[str, Person],
    house_bots: Mapping[str, int],
    words: WordSource,
    variant: Variant = SERVICE,
) -> dl.Duel:
    """Play a duel to its end, people by their model and house bots as the service does."""
    turn_ms = duel.turn_ms
    limit_s = turn_ms / 1000
    guessed = 0
    while duel.ended_at is None:
        player = duel.players[len(duel.turns) % 2]
        started = duel.turn_started_at
        if player in house_bots:
            at = house.move_at(seed, duel, house_bots)
            if at is None:
                duel = dl.expire(duel, started + turn_ms)
                continue
            word = _bot_word(duel, house_bots[player], seed, words, variant)
            duel = dl.play(duel, player, word, at)
        else:
            person = people[player]
            think = math.exp(person.mu + person.sigma * rng.gauss(0.0, 1.0))
            if think >= limit_s:
                duel = dl.expire(duel, started + turn_ms)
                continue
            chance = person.hazard[min(guessed, len(person.hazard) - 1)]
            word = duel.secret if rng.random() < chance else _miss(duel, words, rng)
            duel = dl.play(duel, player, word, started + int(think * 1000))
        guessed += 1
    return duel


@dataclass(frozen=True, slots=True)
class MixedOutcome:
    rounds: int
    minutes: float
    round_seconds: tuple[float, ...]  # each round, from its duels' start to its end
    round_duels: tuple[int, ...]  # how many duels each round had (it waits for the slowest)
    places: Mapping[str, int]
    bots: frozenset[str]


def play_tournament(
    rng: random.Random,
    words: WordSource,
    people: Sequence[float],
    bots: Sequence[int] = (),
    model: PlayerModel | None = None,
    timing: Timing | None = None,
    variant: Variant = SERVICE,
) -> MixedOutcome:
    """One tournament of people of ratings `people` and house bots of ratings `bots` (8 in
    all), from the first intro to its end. Seats `h0…` are people, `b0…` bots."""
    if len(people) + len(bots) != 8:
        raise ValueError("a tournament seats 8")
    model = model or PlayerModel()
    timing = timing or Timing(reconnect_ms=NEVER_MS)
    seats = [tm.Seat(f"h{i}", f"Person {i}", round(r)) for i, r in enumerate(people)]
    seats += [tm.Seat(f"b{i}", f"Bot {i}", r, True, house=True) for i, r in enumerate(bots)]
    rng.shuffle(seats)
    t, _ = tm.start("sim", "sim", seats, 0, rng, words, timing)
    persons = {s.id: Person.of(model, r) for s, r in ((s, s.rating) for s in seats if not s.house)}
    ratings = {s.id: s.rating for s in seats if s.house}
    while t.finished_at is None:
        duels = [play_duel(d, rng, t.seed, persons, ratings, words, variant) for d in t.round.duels]
        t, _ = tm.record_duels(t, duels, words)
    return MixedOutcome(
        rounds=len(t.rounds),
        minutes=(t.finished_at - t.created_at) / 60_000,
        round_seconds=tuple(((r.ended_at or r.starts_at) - r.starts_at) / 1000 for r in t.rounds),
        round_duels=tuple(len(r.duels) for r in t.rounds),
        places={p.id: p.place or 0 for p in t.players},
        bots=frozenset(ratings),
    )
