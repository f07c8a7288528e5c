"""The bot's brain: which words can still be the secret, which one to play, how long to think.

Pure code: word lists come in as arguments and randomness as an `rng`, so a test can replay any
game. The board is shared (D4), so the bot learns from every row, its own and its opponent's.

A candidate `c` is consistent with a row `(guess, marks)` exactly when `score(c, guess) == marks`
(core.feedback, D3): that one test gets repeated letters right without any special cases, e.g.
with the secret ABBEY the guess BOBBY scores `Y-G-G` (so exactly two Bs), and only the words that
would score the same stay candidates.

Skill levels differ the way people do:

- **easy** thinks longest and sometimes lets the clock run out; its vocabulary holds thousands of
  rare words that are never secrets, so its guesses are often long shots; and now and then it
  reads only the green tiles of the board (an error: it plays a word the board already rules out).
- **medium** knows fewer rare words, compares a few candidates by how common their letters are
  among the words still possible, and slips less often.
- **hard** knows exactly which words can be secrets, never slips, thinks fast, and plays the
  candidate that splits the remaining candidates best (the smallest expected number left).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from core.feedback import CORRECT, score

Word = tuple[str, ...]
Row = tuple[Word, str]  # a played word and its marks, as the board shows them

# How many possible secrets a hard bot scores each option against (a sample keeps a pick cheap).
PARTITION_SAMPLE = 150


@dataclass(frozen=True, slots=True)
class Skill:
    name: str
    think_median: float  # median thinking time, as a fraction of the turn
    think_sigma: float  # spread of the (log-normal) thinking time
    skip_chance: float  # chance to let the turn time out (R11)
    slip_chance: float  # chance to play from the green tiles alone
    compare: int  # candidate words compared per pick; 1 plays the first random one
    informed: bool  # compares by how well a word splits the candidates (else letter frequency)
    rare_words: int  # accepted non-secret words it also believes possible


EASY = Skill("easy", 0.5, 0.45, 0.06, 0.3, 1, False, 4000)
MEDIUM = Skill("medium", 0.35, 0.4, 0.03, 0.15, 3, False, 2000)
HARD = Skill("hard", 0.22, 0.35, 0.0, 0.0, 40, True, 0)
SKILLS = {s.name: s for s in (EASY, MEDIUM, HARD)}


def skill_for_rating(rating: float) -> Skill:
    """A bot plays like the players of its rating: weaker below 950, strong from 1100."""
    if rating < 950:
        return EASY
    if rating < 1100:
        return MEDIUM
    return HARD


@dataclass(frozen=True, slots=True)
class Lexicon:
    """One language's words of one length: the possible secrets and the other valid guesses."""

    secrets: tuple[Word, ...]
    rare: tuple[Word, ...]  # accepted as guesses, never drawn as secrets

    @classmethod
    def from_lists(cls, secrets: Sequence[Word], accepted: Sequence[Word]) -> Lexicon:
        known = set(secrets)
        return cls(tuple(secrets), tuple(w for w in accepted if w not in known))


def consistent(word: Word, rows: Sequence[Row]) -> bool:
    """Whether `word` could be the secret, given every row of the board."""
    return all(score(word, guess) == marks for guess, marks in rows)


def filter_candidates(words: Sequence[Word], rows: Sequence[Row]) -> list[Word]:
    return [w for w in words if consistent(w, rows)]


def _greens_fit(word: Word, rows: Sequence[Row]) -> bool:
    return all(
        word[i] == tile
        for guess, marks in rows
        for i, (tile, mark) in enumerate(zip(guess, marks, strict=True))
        if mark == CORRECT
    )


def expected_left(option: Word, targets: Sequence[Word]) -> float:
    """How many of `targets` would on average remain possible after playing `option`."""
    groups = Counter(score(t, option) for t in targets)
    return sum(n * n for n in groups.values()) / max(1, len(targets))


def think_seconds(skill: Skill, turn_s: float, rng: random.Random) -> float | None:
    """Seconds to think before playing, or None to let the turn time out."""
    if rng.random() < skill.skip_chance:
        return None
    seconds = skill.think_median * turn_s * math.exp(rng.gauss(0.0, skill.think_sigma))
    return min(max(seconds, 0.08 * turn_s), 0.9 * turn_s)


class DuelBrain:
    """What one bot knows during one duel. Feed it the board with `observe`, then `choose`."""

    def __init__(self, lexicon: Lexicon, skill: Skill, rng: random.Random) -> None:
        self.skill = skill
        self.rng = rng
        rare = list(lexicon.rare)
        extra = rng.sample(rare, min(skill.rare_words, len(rare)))
        self._all = [*lexicon.secrets, *lexicon.rare]
        self._vocabulary = [*lexicon.secrets, *extra]
        self._candidates = list(self._vocabulary)
        self._rows: list[Row] = []
        self._ruled_out: set[Word] = set()  # played already, or refused by the server

    @property
    def candidates(self) -> list[Word]:
        return self._candidates

    def observe(self, rows: Sequence[Row]) -> None:
        """The board's guessed rows in order (skipped turns left out); rows only ever grow."""
        for row in rows[len(self._rows) :]:
            self._candidates = [c for c in self._candidates if score(c, row[0]) == row[1]]
            self._ruled_out.add(row[0])
        self._rows = list(rows)
        if not self._candidates:
            # The secret is outside what this bot believed possible: widen to every valid word.
            self._candidates = filter_candidates(self._all, self._rows)

    def reject(self, word: Word) -> None:
        """The server refused the word (R13): never offer it again."""
        self._ruled_out.add(word)
        self._candidates = [c for c in self._candidates if c != word]

    def choose(self) -> Word:
        skill, rng = self.skill, self.rng
        pool = [c for c in self._candidates if c not in self._ruled_out]
        if self._rows and rng.random() < skill.slip_chance:
            loose = [
                w
                for w in self._vocabulary
                if w not in self._ruled_out and _greens_fit(w, self._rows)
            ]
            if loose:
                return rng.choice(loose)
        if not pool:
            spare = [w for w in self._all if w not in self._ruled_out]
            return rng.choice(spare or self._all)
        if len(pool) <= 2 or skill.compare <= 1:
            return pool[0] if skill.informed else rng.choice(pool)
        options = rng.sample(pool, min(skill.compare, len(pool)))
        if skill.informed:
            targets = rng.sample(pool, min(PARTITION_SAMPLE, len(pool)))
            return min(options, key=lambda o: expected_left(o, targets))
        common = Counter(t for w in pool for t in set(w))
        return max(options, key=lambda o: sum(common[t] for t in set(o)))
