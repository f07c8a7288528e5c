"""`wordle-tournament bench solver`: the solver engine (core.solver) in every language and length.

For each of the 13 languages and 4, 5 and 6 tiles it builds the lexicon (once per process in
the service), plays duels of 12 rows (the longest a board gets: R10, R14) whose misses are words
the board still allows, as people play them (core.simulation_words), and times:

- the coach's whole-duel analysis (core.analysis.analyse, D19), goal under 100 ms: the first in
  the process (which also works out the first row's options, the same in every duel of that
  language and length) and the later ones;
- the analysis of a stubborn board, whose every row tells as little as it can (the slowest);
- a house bot's word on each row (core.bots.house_word, D18), for an easy and a hard bot.

Times are CPU time of this process (time.process_time), so that other work on a shared machine
does not count; wall time on an idle core is the same.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from api.words import lexicon
from core import analysis, bots
from core.duel import Duel, Turn, Word
from core.feedback import score
from core.solver.board import BoardRow, candidates
from core.solver.lexicon import Lexicon, nth
from core.solver.split import expected_left
from wordlists.languages import LANGUAGES, LENGTHS

GOAL_MS = 100.0


def register(bench: Any) -> None:
    parser = bench.add_parser("solver", help="duel analysis and bot moves in every language")
    parser.add_argument("--duels", type=int, default=5, metavar="N", help="per language, length")
    parser.add_argument("--seed", type=int, default=1, metavar="S")
    parser.add_argument("--lang", choices=list(LANGUAGES), action="append", help="default: all")
    parser.set_defaults(handler=bench_solver)


def full_board(lex: Lexicon, secret: Word, rng: random.Random) -> list[tuple[Word, str]]:
    """12 rows that miss the secret, each a word the board still allows when there is one."""
    rows: list[tuple[Word, str]] = []
    j = lex.bit[secret]
    for _ in range(12):
        left = candidates(lex, rows) & ~(1 << j)
        if not left:
            left = lex.all_secrets & ~(1 << j)
        word = lex.universe[nth(left, rng.randrange(left.bit_count()))]
        rows.append((word, score(secret, word)))
    return rows


def stubborn_board(lex: Lexicon, secret: Word, rng: random.Random) -> list[tuple[Word, str]]:
    """12 rows that each tell as little as possible (the least telling of 300 accepted words):
    the candidates stay many, row after row, which is the analysis's slowest case."""
    rows: list[tuple[Word, str]] = []
    pool = [lex.accepted_word(i) for i in rng.sample(range(lex.accepted_count), 300)]
    left = lex.all_secrets
    for _ in range(12):
        word = max((w for w in pool if w != secret), key=lambda w: expected_left(lex, left, w))
        pool.remove(word)
        rows.append((word, score(secret, word)))
        left = candidates(lex, rows[-1:], left)
    return rows


def _duel(secret: Word, rows: list[tuple[Word, str]]) -> Duel:
    turns = tuple(Turn(("a", "b")[i % 2], w, m, 1_000 * (i + 1)) for i, (w, m) in enumerate(rows))
    return Duel("r1d1", ("a", "b"), secret, 0, 30_000, turns, ended_at=12_000)


def _ms(start: float) -> float:
    return (time.process_time() - start) * 1000


def bench_solver(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    languages = args.lang or list(LANGUAGES)
    print(
        f"{'lang':<5}{'tiles':>5}{'secrets':>9}{'accepted':>10}{'index ms':>10}"
        f"{'first analysis':>16}{'later p50':>11}{'max':>7}{'stubborn':>10}"
        f"{'bot word p50':>14}{'max':>7}"
    )
    worst = 0.0
    for language in languages:
        for length in LENGTHS:
            started = time.process_time()
            lex = lexicon(language, length)
            build = _ms(started)
            analyses, words = [], []
            for d in range(args.duels):
                secret = rng.choice(lex.secrets)
                rows = full_board(lex, secret, rng)
                started = time.process_time()
                analysis.analyse(_duel(secret, rows), lex, args.seed + d)
                analyses.append(_ms(started))
                board: list[BoardRow] = list(rows)
                for row in range(12):
                    rating = (800, 1300)[row % 2]  # an easy and a hard bot take turns
                    started = time.process_time()
                    bots.house_word(args.seed + d, "r1d1", row, rating, board[:row], lex)
                    words.append(_ms(started))
            first, later = analyses[0], analyses[1:] or analyses
            secret = rng.choice(lex.secrets)
            stubborn = _duel(secret, stubborn_board(lex, secret, rng))
            started = time.process_time()
            analysis.analyse(stubborn, lex, args.seed)
            slow = _ms(started)
            worst = max(worst, slow, *analyses)
            print(
                f"{language:<5}{length:>5}{len(lex.secrets):>9}{lex.accepted_count:>10}"
                f"{build:>10.1f}{first:>16.1f}{statistics.median(later):>11.1f}"
                f"{max(later):>7.1f}{slow:>10.1f}"
                f"{statistics.median(words):>14.2f}{max(words):>7.2f}",
                flush=True,
            )
    verdict = "meets" if worst < GOAL_MS else "misses"
    print(
        f"slowest whole-duel analysis (first ones included): {worst:.1f} ms "
        f"({verdict} the goal of {GOAL_MS:.0f} ms); all times in ms of CPU"
    )
    return 0
