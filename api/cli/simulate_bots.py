"""`wordle-tournament simulate --bots`: house bots among modelled people (D18, docs/simulator.md).

Prints, with real words of one language (core.simulation_words):

1. how the people model scales with rating: one person of R among seven of 1000, and the rating
   difference their score stands for under D5 (it should be R − 1000);
2. where one bot places among seven people of its own rating, as the service plays it (paced)
   and, for comparison, in each style at full strength: an average player places 4.5;
3. how long rounds take with 0, 1, 4 and 7 house bots among people of 1000 (every round waits for
   its slowest duel: bots must not make it longer).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from api.words import word_source
from core import bots
from core.simulation_words import MixedOutcome, Variant, play_tournament
from core.words import WordSource

RATINGS = (600, 700, 800, 900, 1000, 1100, 1200, 1300, 1400)
STYLES = (bots.EASY, bots.MEDIUM, bots.HARD)


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def _score(me: int, places: Sequence[int]) -> float:
    """D5's actual score per opponent."""
    return sum(1.0 if me < o else 0.5 if me == o else 0.0 for o in places) / len(places)


def _runs(n: int, seed: int, play: Callable[[random.Random], MixedOutcome]) -> list[MixedOutcome]:
    rng = random.Random(seed)
    return [play(rng) for _ in range(n)]


def _against_people(words: WordSource, r: int, rng: random.Random) -> MixedOutcome:
    """A house bot of rating `r` among seven people of 1000."""
    return play_tournament(rng, words, [r] + [1000] * 7)


def _against_bots(words: WordSource, r: int, variant: Variant, rng: random.Random) -> MixedOutcome:
    """Seven people of rating `r` and one bot of the same rating, played as `variant`."""
    return play_tournament(rng, words, [r] * 7, [r], variant=variant)


def _with_bots(words: WordSource, k: int, rng: random.Random) -> MixedOutcome:
    """`k` house bots among people, all of 1000."""
    return play_tournament(rng, words, [1000] * (8 - k), [1000] * k)


def tables(language: str, n: int, seed: int) -> dict[str, Any]:
    words = word_source(language)
    people_scale = []
    for r in (700, 850, 1150, 1300):
        runs = _runs(n, seed, partial(_against_people, words, r))
        score = statistics.fmean(
            _score(o.places["h0"], [v for k, v in o.places.items() if k != "h0"]) for o in runs
        )
        implied = 400 * math.log10(score / (1 - score))
        people_scale.append({"rating": r, "score": round(score, 3), "implied": round(implied)})

    places = []
    for r in RATINGS:
        row: dict[str, Any] = {
            "rating": r,
            "style": bots.house_skill(r).name,
            "boost": round(bots.boost(r), 2),
        }
        variants = {"house": Variant()} | {s.name: Variant(paced=False, style=s) for s in STYLES}
        for name, variant in variants.items():
            runs = _runs(n, seed, partial(_against_bots, words, r, variant))
            mean, se = _mean_se([o.places["b0"] for o in runs])
            row[name] = {"mean_place": round(mean, 2), "se": round(se, 2)}
        places.append(row)

    rounds = []
    for k in (0, 1, 4, 7):
        runs = _runs(n, seed, partial(_with_bots, words, k))
        by_duels: dict[int, list[float]] = {}
        for o in runs:
            for seconds, duels in zip(o.round_seconds, o.round_duels, strict=True):
                by_duels.setdefault(duels, []).append(seconds)
        rounds.append(
            {
                "bots": k,
                # A round waits for its slowest duel, so rounds compare by their number of duels
                # (with bots, a tournament may end early: fewer of the later, shorter rounds).
                "round_s_mean_by_duels": {
                    str(d): round(statistics.fmean(v), 1) for d, v in sorted(by_duels.items())
                },
                "round_s_p90_by_duels": {
                    str(d): round(sorted(v)[int(0.9 * len(v))], 1)
                    for d, v in sorted(by_duels.items())
                },
                "rounds_median": statistics.median(o.rounds for o in runs),
                "minutes_median": round(statistics.median(o.minutes for o in runs), 2),
            }
        )
    return {"people": people_scale, "places": places, "rounds": rounds}


def report(args: argparse.Namespace) -> int:
    n = args.tournaments if args.tournaments_given else 200
    started = time.perf_counter()
    t = tables(args.language, n, args.seed)
    elapsed = time.perf_counter() - started
    if args.json:
        import json

        print(json.dumps({"language": args.language, "tournaments": n, **t}))
        return 0
    lines = [
        f"House bots among modelled people ({args.language}, {n} tournaments a line, "
        f"seed {args.seed}, {elapsed:.0f} s)",
        "",
        "1. The people model by rating: one person of R among seven of 1000",
        f"  {'R':>5} {'score per opponent':>19} {'stands for (D5)':>16}",
    ]
    for p in t["people"]:
        diff = p["rating"] - 1000
        lines.append(
            f"  {p['rating']:>5} {p['score']:>19.3f} {p['implied']:>+13d} (R − 1000 = {diff:+d})"
        )
    lines += [
        "",
        "2. One bot among seven people of its rating: its mean place (an average player: 4.50)",
        f"  {'R':>5} {'style':>7} {'boost':>6} {'house bot':>12}"
        + "".join(f" {s.name + ' (full)':>14}" for s in STYLES),
    ]
    for row in t["places"]:
        cells = [
            f"{row[k]['mean_place']:.2f} ± {row[k]['se']:.2f}"
            for k in ("house", *(s.name for s in STYLES))
        ]
        lines.append(
            f"  {row['rating']:>5} {row['style']:>7} {row['boost']:>6.2f} {cells[0]:>12}"
            + "".join(f" {c:>14}" for c in cells[1:])
        )
    lines += [
        "",
        "3. Rounds among people of 1000 with house bots of 1000: seconds from the duels' start",
        "   to the round's end, mean (p90), by the round's number of duels",
        f"  {'bots':>5}"
        + "".join(f" {f'{d} duels':>15}" for d in (4, 3, 2, 1))
        + f" {'rounds':>7} {'minutes':>8}",
    ]
    for r in t["rounds"]:
        mean, p90 = r["round_s_mean_by_duels"], r["round_s_p90_by_duels"]
        cells = [f"{mean.get(str(d), 0):.1f} ({p90.get(str(d), 0):.0f})" for d in (4, 3, 2, 1)]
        lines.append(
            f"  {r['bots']:>5}"
            + "".join(f" {c:>15}" for c in cells)
            + f" {r['rounds_median']:>7} {r['minutes_median']:>8.2f}"
        )
    lines.append(
        "  (rounds, minutes: medians; with bots a tournament ends once only bots are left)"
    )
    print("\n".join(lines))
    return 0
