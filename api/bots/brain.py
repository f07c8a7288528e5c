"""An HTTP bot's memory of one duel, on top of the house bots' strategy (core.bots).

A house bot (D18) is a pure function of the stored tournament; a bot that plays through the API
(the load harness's players, `bench polls`, the scale world) keeps its own generator and
remembers the words the server refused (R13). Both pick their words with `core.bots.pick`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from core.bots import Skill, pick, vocabulary
from core.duel import Word
from core.solver.board import Row, candidates
from core.solver.lexicon import Lexicon


class DuelBrain:
    """Feed it the board with `observe`, then `choose`; `reject` a word the server refused."""

    def __init__(self, lexicon: Lexicon, skill: Skill, rng: random.Random) -> None:
        self.lexicon = lexicon
        self.skill = skill
        self.rng = rng
        self.believed = vocabulary(lexicon, skill, rng)
        self.rows: list[Row] = []
        self.refused: set[Word] = set()

    @property
    def candidates(self) -> list[Word]:
        """The words this bot believes can still be the secret."""
        return self.lexicon.words(candidates(self.lexicon, self.rows, self.believed))

    def observe(self, rows: Sequence[Row]) -> None:
        """The board's guessed rows in order (skipped turns left out)."""
        self.rows = list(rows)

    def reject(self, word: Word) -> None:
        self.refused.add(tuple(word))

    def choose(self) -> Word:
        return pick(self.lexicon, self.skill, self.rows, self.believed, self.rng, self.refused)
