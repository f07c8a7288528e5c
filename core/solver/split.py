"""D3 on sets of words at once: which words a row leaves possible, and how a guess splits a set.

A word `c` stays possible after a row `(guess, marks)` exactly when `score(c, guess) == marks`
(core.feedback): that one test gets repeated letters right without special cases. Here the same
test runs on a whole set as bitsets (core.solver.lexicon), tile by tile of the guess:

- a tile that occurs once in the guess, at position i, is *correct* for the words with that tile
  at i, *present* for the other words that contain it, *absent* for the rest: D3's second pass
  can only use a copy of it that no correct mark took, and with one occurrence in the guess no
  other correct mark takes one;
- a tile that occurs k > 1 times marks its positions by which of them are correct and how many
  copies c the word has: of the others, left to right, the first c − (correct ones) are present
  (D3's second pass), the rest absent.

The marks of different tiles are independent, so a word's marks are the combination of its
classes for each tile, and the groups of words that a guess cannot tell apart are the
intersections of those classes.
"""

from __future__ import annotations

from itertools import combinations

from core.duel import Word
from core.feedback import ABSENT, CORRECT, PRESENT
from core.solver.lexicon import Bits, Lexicon


def _tiles(guess: Word) -> dict[str, list[int]]:
    spots: dict[str, list[int]] = {}
    for i, tile in enumerate(guess):
        spots.setdefault(tile, []).append(i)
    return spots


def _repeat_classes(
    lex: Lexicon, tile: str, spots: tuple[int, ...]
) -> tuple[tuple[str, Bits], ...]:
    """For a tile at several positions of a guess: (its marks at those positions, the universe
    words that get them)."""
    key = (tile, spots)
    found = lex.memo.get(key)
    if found is not None:
        return found
    everything = (1 << len(lex.universe)) - 1
    copies = lex.least.get(tile, ())
    k = len(spots)

    def at_least(n: int) -> Bits:
        if n <= 0:
            return everything
        return copies[n - 1] if n <= len(copies) else 0

    classes = []
    for greens in range(k + 1):
        for correct in combinations(spots, greens):
            base = everything
            for i in spots:
                here = lex.at[i].get(tile, 0)
                base &= here if i in correct else everything ^ here
            if not base:
                continue
            for present in range(k - greens + 1):
                n = greens + present
                # exactly n copies, or at least k when every other position is present
                bits = base & at_least(n)
                if present < k - greens:
                    bits &= everything ^ at_least(n + 1)
                if not bits:
                    continue
                marks = []
                left = present
                for i in spots:
                    if i in correct:
                        marks.append(CORRECT)
                    elif left:
                        marks.append(PRESENT)
                        left -= 1
                    else:
                        marks.append(ABSENT)
                classes.append(("".join(marks), bits))
    result = tuple(classes)
    lex.memo[key] = result
    return result


def consistent(lex: Lexicon, within: Bits, guess: Word, marks: str) -> Bits:
    """The words of `within` that leave `marks` for `guess`: what stays possible after the row."""
    if len(guess) != lex.length or len(marks) != lex.length:
        raise ValueError("the row's length is not the lexicon's")
    left = within
    for tile, spots in _tiles(guess).items():
        if not left:
            break
        if len(spots) == 1:
            i = spots[0]
            here = lex.at[i].get(tile, 0)
            mark = marks[i]
            if mark == CORRECT:
                left &= here
            elif mark == PRESENT:
                left &= lex.has(tile)
                left ^= left & here
            else:
                left ^= left & lex.has(tile)
        else:
            sub = "".join(marks[i] for i in spots)
            union = 0
            for pattern, bits in _repeat_classes(lex, tile, tuple(spots)):
                if pattern == sub:
                    union |= bits
            left &= union
    return left


def split(lex: Lexicon, within: Bits, guess: Word) -> list[Bits]:
    """The groups of `within` that `guess` cannot tell apart (one per feedback it can get)."""
    groups = [within] if within else []
    for tile, spots in _tiles(guess).items():
        finer: list[Bits] = []
        add = finer.append
        if len(spots) == 1:
            here = lex.at[spots[0]].get(tile, 0)
            has = lex.has(tile)
            for group in groups:
                correct = group & here
                if correct:
                    add(correct)
                    group ^= correct
                present = group & has
                if present:
                    add(present)
                    group ^= present
                if group:
                    add(group)
        else:
            classes = [bits for _, bits in _repeat_classes(lex, tile, tuple(spots))]
            for group in groups:
                for bits in classes:
                    part = group & bits
                    if part:
                        add(part)
                        group ^= part
                        if not group:
                            break
        groups = finer
    return groups


def expected_left(lex: Lexicon, within: Bits, guess: Word) -> float:
    """How many words of `within` are on average still to be found after playing `guess`, each
    equally likely to be the secret: a group of n leaves n, except that the guess itself, when
    it is one of them, leaves nothing (the duel is won). Remembered for the empty board."""
    opening = within == lex.all_secrets
    if opening:
        known = lex.opening.get(guess)
        if known is not None:
            return known
    total = within.bit_count()
    if not total:
        return 0.0
    squares = sum(g.bit_count() ** 2 for g in split(lex, within, guess))
    j = lex.bit.get(guess)
    if j is not None and within >> j & 1:
        squares -= 1
    expected = squares / total
    if opening:
        lex.opening[guess] = expected
    return expected
