"""The solver on a shared board (D4): what each row left possible and how good it was.

For each row of a board (both players' rows; a skipped turn carries no information, R11) it
gives the candidates before and after the row, the expected number of words left for the words
the player could have played instead, the best of them, and the share of the information still
needed that the row gained. The lists are large (up to tens of thousands of accepted words), so
the options are a seeded sample: every candidate while there are few, else a sample of them,
and a sample of every accepted word (a word that cannot be the secret may split the candidates
better). Only words the service may offer are options (a blocked word is never the best, though
it counts as a candidate and a player's blocked word is scored). The same seed gives the same
options, so an analysis is reproducible. On the empty board (a first row) the sample is the same
in every duel, so that its figures are computed once.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from core import seeds
from core.duel import Duel, Word
from core.feedback import is_solved
from core.solver.lexicon import Bits, Lexicon, members
from core.solver.split import consistent, expected_left

Row = tuple[Word, str]  # a played word and its marks, as the board shows them
BoardRow = Row | None  # None: a skipped turn

# Options compared on each row: all candidates up to this many, else a sample of this many …
CANDIDATE_OPTIONS = 100
# … and this many of every accepted word (all of them in a language with few), once more than
# PROBES_ABOVE candidates are left: with 3 or fewer a candidate is always a best choice (it may
# win at once, and no other word can split three words into more than three groups).
PROBE_OPTIONS = 100
PROBES_ABOVE = 3


def board_of(duel: Duel) -> tuple[BoardRow, ...]:
    """A duel's board as every player sees it (D4): its rows, None for a skipped turn."""
    return tuple(None if t.word is None else (t.word, t.marks or "") for t in duel.turns)


def candidates(lex: Lexicon, rows: Iterable[BoardRow], within: Bits | None = None) -> Bits:
    """The words of `within` (every secret by default) that every row leaves possible."""
    left = lex.all_secrets if within is None else within
    for row in rows:
        if row is not None:
            left = consistent(lex, left, row[0], row[1])
    return left


@dataclass(frozen=True, slots=True)
class Option:
    word: Word
    expected: float  # words still to be found after it, on average (core.solver.split)


@dataclass(frozen=True, slots=True)
class Step:
    """One row of a board as the solver sees it."""

    row: int
    word: Word | None  # None: a skipped turn, which changes nothing
    marks: str | None
    before: Bits  # the candidates before the row
    after: Bits  # and after it
    options: tuple[Option, ...]  # the words compared, best first (none for a skip)
    played: float | None  # the played word's expected number left

    @property
    def count_before(self) -> int:
        return self.before.bit_count()

    @property
    def count_after(self) -> int:
        return self.after.bit_count()

    @property
    def solved(self) -> bool:
        return self.marks is not None and is_solved(self.marks)

    @property
    def left(self) -> int:
        """Words still to be found after the row: none once it found the secret."""
        return 0 if self.solved else self.count_after

    @property
    def best(self) -> Option | None:
        return self.options[0] if self.options else None

    @property
    def bits_needed(self) -> float:
        """The information the board still needed before the row: log2 of the candidates."""
        n = self.count_before
        return math.log2(n) if n > 1 else 0.0

    @property
    def bits_gained(self) -> float:
        before, after = self.count_before, self.count_after
        return math.log2(before / after) if before and after else 0.0

    @property
    def info_share(self) -> float | None:
        """Bits gained over bits needed; None when nothing was left to learn."""
        needed = self.bits_needed
        return self.bits_gained / needed if needed else None


def options(
    lex: Lexicon, within: Bits, rng: random.Random, also: Sequence[Word] = ()
) -> tuple[Option, ...]:
    """The expected number left for a seeded sample of the words one could play on a board
    whose candidates are `within` (plus the words `also`), best first: only words the service
    may offer (`Lexicon.offers`), though every word of `within` counts as a candidate."""
    if not within:
        return ()
    chosen: dict[Word, None] = {}
    if within == lex.all_secrets:
        # The empty board is the same in every duel: one fixed sample, whose expected numbers
        # core.solver.split remembers, makes a first row cost one split.
        rng = seeds.stream("opening", lex.length, len(lex.secrets), lex.accepted_count)
    pool = members(within)
    if len(pool) > CANDIDATE_OPTIONS:
        pool = rng.sample(pool, CANDIDATE_OPTIONS)
    universe = lex.universe
    for j in pool:
        if lex.offered >> j & 1:
            chosen[universe[j]] = None
    # A withheld candidate leaves the "a candidate is best" argument without its candidate.
    if len(pool) > PROBES_ABOVE or len(chosen) < len(pool):
        count = lex.accepted_count
        picks = range(count) if count <= PROBE_OPTIONS else rng.sample(range(count), PROBE_OPTIONS)
        for i in picks:
            word = lex.accepted_word(i)
            if lex.offers(word):
                chosen[word] = None
    for w in also:
        if lex.offers(tuple(w)):
            chosen[tuple(w)] = None
    scored = [Option(w, expected_left(lex, within, w)) for w in chosen]
    scored.sort(key=lambda o: (o.expected, o.word))
    return tuple(scored)


def expected_of(lex: Lexicon, within: Bits, compared: Sequence[Option], word: Word) -> float:
    """`word`'s expected number left, from the options compared (`options` with `also=(word,)`)
    or, for a word the service never offers (not among them), computed."""
    found = next((o.expected for o in compared if o.word == word), None)
    return expected_left(lex, within, word) if found is None else found


def steps(lex: Lexicon, board: Sequence[BoardRow], rng: random.Random) -> tuple[Step, ...]:
    """Every row of `board`, in order. `rng` draws the sampled options (seed it for a
    reproducible answer)."""
    out = []
    left = lex.all_secrets
    for i, row in enumerate(board):
        if row is None:
            out.append(Step(i, None, None, left, left, (), None))
            continue
        word, marks = row
        compared = options(lex, left, rng, (word,))
        played = expected_of(lex, left, compared, word)
        after = consistent(lex, left, word, marks)
        out.append(Step(i, word, marks, left, after, compared, played))
        left = after
    return tuple(out)
