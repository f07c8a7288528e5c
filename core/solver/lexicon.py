"""One language's words of one length, indexed for the solver (D3, D12).

A `Lexicon` holds the possible secrets, the other accepted guesses, and an index that answers
"which of these words have tile t at position i" and "which have at least k copies of t" as
bitsets: Python ints in which bit j stands for word j of `universe`. Every question the solver
asks of a set of words (which stay possible after a row, how a guess splits them) is then a
handful of ANDs on ints, done in C, instead of one feedback computation per word.

`universe` is the secrets (bits 0 … S-1) then a fixed sample of the other accepted words (the
rare words a weaker bot may believe possible, `core.bots`): a set of candidates among the
secrets alone is an int of at most S bits, so it stays small however large the language.

`withheld` are accepted words the service never offers in its own name (the language's blocked
words, core.blocked_words.blocked_entry): a person may play them, and they count as candidates
like any word, but the coach never suggests one and a bot never plays one; `offered` is the
universe without them, as a bitset, so that leaving them out costs one AND.

Built once per language and length by the shell (the index takes a few milliseconds) and shared
by every duel: it is immutable.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from core.duel import Word

# How many of the accepted non-secret words the index holds (a fixed, evenly spread sample):
# the most rare words any bot believes possible (core.bots.Skill.rare_words).
RARE_POOL = 4000

Bits = int  # a set of words of a lexicon's universe: bit j is universe[j]


@dataclass(frozen=True, slots=True, eq=False)
class Lexicon:
    """Words of one length: `secrets` may be drawn (D12), `others` are accepted and never drawn.

    `others` may be a lazy sequence: the solver only samples it (it can be tens of thousands).
    Build with `Lexicon.build`.
    """

    length: int
    secrets: tuple[Word, ...]
    others: Sequence[Word]
    universe: tuple[Word, ...]  # secrets, then `rare` (see the module docstring)
    at: tuple[dict[str, Bits], ...]  # at[i][tile]: words with `tile` at position i
    least: dict[str, tuple[Bits, ...]]  # least[tile][k - 1]: words with at least k copies
    bit: dict[Word, int]  # a universe word's bit number
    withheld: frozenset[Word]  # accepted words never offered (see the module docstring)
    offered: Bits  # the universe's words not withheld
    # Memos, pure and so shared by every duel (a race between threads only repeats work):
    # the feedback classes of repeated tiles (core.solver.split) …
    memo: dict[tuple[str, tuple[int, ...]], tuple[tuple[str, Bits], ...]] = field(
        default_factory=dict, repr=False
    )
    # … and each word's expected number left on the empty board (every secret possible), the
    # same in every duel of this language and length.
    opening: dict[Word, float] = field(default_factory=dict, repr=False)

    @classmethod
    def build(
        cls, secrets: Iterable[Word], others: Sequence[Word], withheld: Iterable[Word] = ()
    ) -> Lexicon:
        """`others`: the accepted words that are not secrets (a word in both counts as a secret);
        `withheld`: the accepted words never offered."""
        secret_words = tuple(dict.fromkeys(tuple(w) for w in secrets))
        if not secret_words:
            raise ValueError("a lexicon needs at least one secret")
        length = len(secret_words[0])
        if any(len(w) != length for w in secret_words):
            raise ValueError("a lexicon's words all have one length")
        known = set(secret_words)
        step = max(1, -(-len(others) // RARE_POOL))  # evenly spread over a sorted list
        rare = tuple(
            w for w in (tuple(others[i]) for i in range(0, len(others), step)) if w not in known
        )
        universe = secret_words + rare
        never = frozenset(tuple(w) for w in withheld)
        return cls(
            length=length,
            secrets=secret_words,
            others=others,
            universe=universe,
            at=tuple(_positions(universe, i) for i in range(length)),
            least=_copies(universe),
            bit={w: j for j, w in enumerate(universe)},
            withheld=never,
            offered=_pack((j for j, w in enumerate(universe) if w not in never), len(universe)),
        )

    @classmethod
    def from_lists(
        cls, secrets: Sequence[Word], accepted: Sequence[Word], withheld: Iterable[Word] = ()
    ) -> Lexicon:
        """From the secrets and every accepted word (secrets included), as `wordlists` lists
        them."""
        known = set(secrets)
        return cls.build(secrets, [w for w in accepted if w not in known], withheld)

    @property
    def all_secrets(self) -> Bits:
        return (1 << len(self.secrets)) - 1

    @property
    def accepted_count(self) -> int:
        return len(self.secrets) + len(self.others)

    def accepted_word(self, i: int) -> Word:
        """Accepted word number `i` of `accepted_count` (secrets first), for sampling."""
        s = len(self.secrets)
        return self.secrets[i] if i < s else tuple(self.others[i - s])

    def offers(self, word: Word) -> bool:
        """Whether the service may suggest or play `word` (see the module docstring)."""
        return word not in self.withheld

    def has(self, tile: str) -> Bits:
        copies = self.least.get(tile)
        return copies[0] if copies else 0

    def words(self, bits: Bits) -> list[Word]:
        """The words of a set, in universe order."""
        universe = self.universe
        return [universe[j] for j in members(bits)]


def members(bits: Bits) -> list[int]:
    """The bit numbers set in `bits`, in increasing order."""
    if bits <= 0:
        return []
    text = bin(bits)
    top = len(text) - 1
    out = []
    i = text.find("1", 2)
    while i >= 0:
        out.append(top - i)
        i = text.find("1", i + 1)
    out.reverse()
    return out


def nth(bits: Bits, n: int) -> int:
    """The bit number of the n-th (from 0) set bit of `bits`, by bisection on bit counts."""
    lo, hi = 0, bits.bit_length()
    while lo < hi:  # the fewest low bits that hold n + 1 set ones
        mid = (lo + hi) // 2
        if (bits & ((1 << mid) - 1)).bit_count() > n:
            hi = mid
        else:
            lo = mid + 1
    return lo - 1


def _pack(indices: Iterable[int], size: int) -> Bits:
    buffer = bytearray((size + 7) // 8)
    for j in indices:
        buffer[j >> 3] |= 1 << (j & 7)
    return int.from_bytes(buffer, "little")


def _positions(universe: Sequence[Word], i: int) -> dict[str, Bits]:
    by_tile: dict[str, list[int]] = {}
    for j, w in enumerate(universe):
        by_tile.setdefault(w[i], []).append(j)
    return {tile: _pack(js, len(universe)) for tile, js in by_tile.items()}


def _copies(universe: Sequence[Word]) -> dict[str, tuple[Bits, ...]]:
    by_count: dict[str, dict[int, list[int]]] = {}
    for j, w in enumerate(universe):
        for tile, n in Counter(w).items():
            counts = by_count.setdefault(tile, {})
            for k in range(1, n + 1):
                counts.setdefault(k, []).append(j)
    return {
        tile: tuple(_pack(counts[k], len(universe)) for k in range(1, len(counts) + 1))
        for tile, counts in by_count.items()
    }
