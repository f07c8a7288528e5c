"""`wordle-tournament fairplay simulate`: the fair-play thresholds chosen by simulation (D19).

Plays duels on the 13 languages' real words with simulated people and solver clients
(core.fairplay.players), chooses the verdict's thresholds from them (core.fairplay.simulation)
and prints what they do: simulated people flagged over 20 tournaments (the false positives),
the tournaments a solver client needs to be flagged, what a hidden solver gets away with, and
the same over long careers. docs/benchmarks.md ("Fair play") explains the method and keeps the
figures of the default run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import wordlists
from api.progress import Progress
from api.words import lexicon
from core.fairplay import players as pl
from core.fairplay import simulation as sim
from core.fairplay.record import BLOCK
from core.fairplay.verdict import DEFAULT, Thresholds

HIDER_40 = replace(pl.HIDER, name="solver 40 %, human delays", best_share=0.4)
OTHERS = (pl.SOLVER, pl.HIDER, HIDER_40, pl.FAST_HIDER, pl.HARD, pl.STRONG)


PEOPLE = 5000  # careers per stand-in for people (easy, medium): 10,000 simulated people


@dataclass(frozen=True, slots=True)
class Settings:
    seed: int = 1
    people_duels: int = 4000  # duels between people (each gives two people's signals)
    duels: int = 1500  # duels of every other model against people
    tournaments: int = 600  # whole tournaments per model, for how many duels a player plays
    people: int = PEOPLE  # careers per stand-in (easy, medium)
    others: int = 2000  # careers per other model
    long_players: int = 1000  # careers of `long_career` tournaments (medium and strong people)
    long_career: int = 100
    switch_after: int = 50  # honest tournaments before a person turns to a solver

    @classmethod
    def quick(cls, seed: int = 1) -> Settings:
        return cls(seed, 600, 250, 150, 500, 300, 100, 40, 20)


def register(actions: Any) -> None:
    p = actions.add_parser(
        "simulate",
        help="choose the fair-play thresholds by simulation and print what they do (D19)",
    )
    p.add_argument("--seed", type=int, default=1, metavar="S")
    p.add_argument(
        "--people",
        type=int,
        default=PEOPLE,
        metavar="N",
        help="careers per stand-in for people (easy, medium)",
    )
    p.add_argument("--quick", action="store_true", help="a small run (about 20 s)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(handler=simulate_command)


def _lexicons() -> list[Any]:
    return [lexicon(lang, n) for lang in wordlists.LANGUAGES for n in wordlists.LENGTHS]


def _distribution(found: Sequence[sim.Career], within: int) -> dict[str, Any]:
    flagged = [c.flagged_after for c in found]
    n = len(flagged)
    seen = [f for f in flagged if f is not None]
    counts = Counter(seen)
    return {
        "players": n,
        f"within_{within}": round(sum(1 for f in seen if f <= within) / n, 4) if n else None,
        "median": statistics.median(seen) if seen else None,
        "max": max(seen) if seen else None,
        "never": n - len(seen),
        "histogram": {str(k): counts[k] for k in sorted(counts)},
        "reasons": dict(Counter(code for c in found for code in c.reasons)),
    }


def _pool_figures(pool: sim.Pool, counts: Sequence[int]) -> dict[str, Any]:
    t = pool.total
    won, drawn = pool.outcome
    return {
        "duels": len(pool.duels),
        "judged_rows_per_duel": round(t.rows / len(pool.duels), 3),
        "best": round(t.best_rate or 0, 4),
        "near_not_best": round((t.near - t.best) / t.rows, 4) if t.rows else None,
        "mean_skill": round(100 * (t.mean_skill or 0), 1),
        "rare_words": round(t.rare_rate or 0, 3),
        "time_spread": round(t.time_spread or 0, 3),
        "time_slope": round(t.time_slope or 0, 4),
        "duels_won": round(won, 3),
        "duels_drawn": round(drawn, 4),
        "duels_per_tournament": round(statistics.fmean(counts), 2),
    }


def run(settings: Settings, progress: bool = True) -> dict[str, Any]:
    started = time.perf_counter()
    rng = random.Random(settings.seed)
    coach = random.Random(settings.seed + 1)
    lexicons = _lexicons()
    bar = Progress(len(OTHERS) + 1, "duels") if progress else None
    pools = dict(sim.people_pools(lexicons, settings.people_duels, rng, coach))
    for i, model in enumerate(OTHERS, start=1):
        pools[model.name] = sim.pool(model, lexicons, settings.duels, rng, coach)
        if bar:
            bar.update(i)
    if bar:
        bar.close()
    counts = {
        name: sim.duels_per_tournament(rng, settings.tournaments, *p.outcome)
        for name, p in pools.items()
    }
    people = [pools[m.name] for m in pl.PEOPLE]
    chosen = replace(sim.references(people, pools[pl.SOLVER.name]), evidence=sim.evidence_for())
    out: dict[str, Any] = {
        "seed": settings.seed,
        "settings": asdict(settings),
        "thresholds": asdict(chosen),
        "weights_ln": [round(w, 3) for w in chosen.weights],
        "matches_code": chosen == DEFAULT,
        "ville_bound_20": round(-(-sim.CAREER // BLOCK) * 10**-chosen.evidence, 7),
        "pools": {name: _pool_figures(p, counts[name]) for name, p in pools.items()},
    }

    def careers(
        name: str, n: int, tournaments: int, stop: bool = True, th: Thresholds = chosen, **kw: Any
    ) -> list[sim.Career]:
        return sim.careers(pools[name], n, counts[name], tournaments, rng, th, stop, **kw)

    margins = {}
    for margin in sorted({1.0, sim.MARGIN}):
        th = replace(
            sim.references(people, pools[pl.SOLVER.name], margin=margin), evidence=chosen.evidence
        )
        strong = careers(pl.STRONG.name, settings.long_players, settings.long_career, th=th)
        margins[str(margin)] = {
            "strong_flagged_long": sum(c.flagged_after is not None for c in strong),
            **{
                m.name: _distribution(
                    careers(m.name, settings.others, 4 * sim.CAREER, th=th), sim.WITHIN
                )[f"within_{sim.WITHIN}"]
                for m in (pl.SOLVER, pl.HIDER)
            },
        }
    out["margins"] = margins

    false_positives = {}
    for model in (*pl.PEOPLE, pl.STRONG):
        n = settings.people if model.person and model in pl.PEOPLE else settings.others
        found = careers(model.name, n, sim.CAREER, stop=False)
        peaks = sorted(c.peak for c in found)
        flagged = sum(c.flagged_after is not None for c in found)
        false_positives[model.name] = {
            "players": n,
            "tournaments": sim.CAREER,
            "flagged": flagged,
            "rate": flagged / n,
            "rate_upper_95": round((flagged + 3) / n, 5) if flagged == 0 else None,
            "peak_p999": round(peaks[min(n - 1, int(0.999 * n))], 2),
            "peak_max": round(peaks[-1], 2),
            "stand_in": model in pl.PEOPLE,
        }
    out["false_positives"] = false_positives
    out["solvers"] = {
        m.name: _distribution(careers(m.name, settings.others, 4 * sim.CAREER), sim.WITHIN)
        for m in (pl.SOLVER, pl.HIDER, HIDER_40, pl.FAST_HIDER, pl.HARD)
    }
    out["long_careers"] = {
        name: {
            "players": settings.long_players,
            "tournaments": settings.long_career,
            "flagged": sum(
                c.flagged_after is not None
                for c in careers(name, settings.long_players, settings.long_career)
            ),
        }
        for name in (pl.MEDIUM.name, pl.STRONG.name)
    }
    honest = sim.Stage(pools[pl.MEDIUM.name], counts[pl.MEDIUM.name], settings.switch_after)
    out["switch"] = {
        "after": settings.switch_after,
        **{
            m.name: _distribution(
                careers(m.name, settings.long_players, 4 * sim.CAREER, before=honest), sim.WITHIN
            )
            for m in (pl.SOLVER, pl.HIDER)
        },
    }
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f} %"


def _short(histogram: dict[str, int], upto: int = 10) -> str:
    """A histogram's first `upto` tournaments, the rest as one count."""
    head = " ".join(f"{k}:{v}" for k, v in histogram.items() if int(k) <= upto)
    rest = sum(v for k, v in histogram.items() if int(k) > upto)
    return head + (f" >{upto}:{rest}" if rest else "")


def render(f: dict[str, Any]) -> str:
    th = f["thresholds"]
    lines = [
        f"Fair-play simulation (seed {f['seed']}) in {f['seconds']} s",
        "",
        "Duels simulated (real words, 13 languages, lengths 4-6):",
        f"  {'model':30} {'duels':>6} {'judged/duel':>11} {'best':>7} {'near':>7} {'skill':>6}"
        f" {'rare':>6} {'t-spread':>8} {'won':>6} {'duels/t':>7}",
    ]
    for name, p in f["pools"].items():
        lines.append(
            f"  {name:30} {p['duels']:6d} {p['judged_rows_per_duel']:11.2f} {p['best']:7.3f}"
            f" {p['near_not_best']:7.3f} {p['mean_skill']:6.1f} {p['rare_words']:6.3f}"
            f" {p['time_spread']:8.3f} {p['duels_won']:6.3f} {p['duels_per_tournament']:7.2f}"
        )
    lines += [
        "",
        "Thresholds chosen:",
        f"  people's shares (highest stand-in): best {th['best_ref']}, near {th['near_ref']};"
        f" the solver's: best {th['solver_best']}, near {th['solver_near']}",
        f"  weights per row (ln): best {f['weights_ln'][0]}, near {f['weights_ln'][1]},"
        f" other {f['weights_ln'][2]}",
        f"  flag at 10^{th['evidence']} (Ville: at most {f['ville_bound_20']} of people like the"
        f" reference over {sim.CAREER} tournaments), from {th['min_rows']} judged rows;"
        f" mechanical times under {th['mechanical_spread']} with skill {th['mechanical_skill']}+",
        "  the code's thresholds (core.fairplay.verdict.DEFAULT) "
        + ("are these" if f["matches_code"] else "DIFFER: update them or rerun with seed 1"),
        "",
        f"False positives over {sim.CAREER} tournaments:",
    ]
    for name, fp in f["false_positives"].items():
        tag = "" if fp["stand_in"] else "  (not a stand-in: stronger than both)"
        bound = f", < {_percent(fp['rate_upper_95'])} at 95 %" if fp["rate_upper_95"] else ""
        lines.append(
            f"  {name:30} {fp['flagged']}/{fp['players']} flagged ({_percent(fp['rate'])}{bound});"
            f" peak evidence p99.9 {fp['peak_p999']}, max {fp['peak_max']}{tag}"
        )
    lines += ["", "Tournaments until flagged (a career of up to 80):"]
    for name, d in f["solvers"].items():
        lines.append(
            f"  {name:30} within {sim.WITHIN}: {_percent(d[f'within_{sim.WITHIN}'])},"
            f" median {d['median']}, max {d['max']}, never {d['never']}/{d['players']}"
        )
        lines.append(f"  {'':30} by tournament: {_short(d['histogram'])}; reasons {d['reasons']}")
    lines += [
        "",
        f"People's shares times the margin (chosen: {sim.MARGIN}): a strong person's"
        f" {f['settings']['long_career']} tournaments, and flags within {sim.WITHIN}:",
    ]
    for margin, m in f["margins"].items():
        lines.append(
            f"  margin {margin}: strong people flagged {m['strong_flagged_long']}/"
            f"{f['settings']['long_players']}; solver within {sim.WITHIN}"
            f" {_percent(m[pl.SOLVER.name])}, solver 70 % {_percent(m[pl.HIDER.name])}"
        )
    lines += ["", "Long careers:"]
    for name, lc in f["long_careers"].items():
        lines.append(
            f"  {name:30} {lc['flagged']}/{lc['players']} flagged over {lc['tournaments']}"
            " tournaments"
        )
    sw = f["switch"]
    lines.append(f"  a medium person turning to a solver after {sw['after']} tournaments:")
    for name in (pl.SOLVER.name, pl.HIDER.name):
        d = sw[name]
        lines.append(
            f"    {name:28} flagged within {sim.WITHIN} of the switch: "
            f"{_percent(d[f'within_{sim.WITHIN}'])}, median {d['median']}, max {d['max']}"
        )
    return "\n".join(lines)


def simulate_command(args: argparse.Namespace) -> int:
    settings = Settings.quick(args.seed) if args.quick else Settings(seed=args.seed)
    if args.people != PEOPLE and not args.quick:
        settings = replace(settings, people=args.people)
    if settings.people < 1:
        print("--people must be at least 1", file=sys.stderr)
        return 2
    figures = run(settings, progress=not args.json)
    print(json.dumps(figures) if args.json else render(figures))
    return 0
