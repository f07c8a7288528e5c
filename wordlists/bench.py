"""`bench wordlists`: load time and memory of the largest language, and lookup speed."""

from __future__ import annotations

import random
import time
import tracemalloc
from dataclasses import dataclass

from wordlists.languages import LANGUAGES, LENGTHS
from wordlists.store import DATA_DIR, accepted_words, is_accepted, load, unload_all

LOAD_GOAL_MS = 50.0
MEMORY_GOAL_MB = 20.0


@dataclass(frozen=True)
class BenchResult:
    lang: str
    load_ms: float
    memory_mb: float
    lookups_per_second: float


def largest_language() -> str:
    return max(LANGUAGES, key=lambda code: (DATA_DIR / f"{code}.txt").stat().st_size)


def bench(lang: str | None = None, lookups: int = 200_000, repeats: int = 5) -> BenchResult:
    lang = lang or largest_language()
    times = []
    for _ in range(repeats):
        unload_all()
        start = time.perf_counter()
        load(lang)
        times.append(time.perf_counter() - start)
    unload_all()
    tracemalloc.start()
    load(lang)
    memory = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    rng = random.Random(0)
    words = [w for n in LENGTHS for w in accepted_words(lang, n)]
    # Half real words, half with the tiles shuffled (mostly not words).
    probes = [rng.choice(words) for _ in range(lookups)]
    probes = [w if i % 2 else tuple(rng.sample(w, len(w))) for i, w in enumerate(probes)]
    start = time.perf_counter()
    for word in probes:
        is_accepted(lang, word)
    elapsed = time.perf_counter() - start
    return BenchResult(lang, min(times) * 1000, memory / 1e6, lookups / elapsed)
