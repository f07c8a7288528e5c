"""`wordle-tournament bench population`: how long a person waits from Play to their first intro,
and how many seats house bots take (D18), at 1, 10, 100 and 1,000 concurrent players.

People arrive at random (a Poisson process) over the 13 languages (most in English,
`LANGUAGE_SHARES`), rated N(1000, 150), and press Play; each then polls the queue once a second
as the lobby screen does (`POLL_MS`), and stops once its tournament has started. The sweep runs
once a minute, as deployed. Everything goes through the real service code (`Service`: join,
the queue's status with its contact, the sweep) on the in-memory store, with a simulated clock:
no real waiting, so the figures do not depend on the machine.

`N` concurrent players (people queued or playing) arrive at `N / session` a second (Little's
law) for a mean session of `--session` seconds (a wait and a tournament; 600 by default: an
8-player tournament at the real timers lasts up to about 15 minutes for its winner, less for
those out in round 1). A person's tournament is left to the sweep (its people play no guess:
what happens after the intro does not change the queue), so bots come free and are reused as
their places are fixed (D14). The first `--warmup` seconds fill the queue and are not counted.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import random
import statistics
from dataclasses import dataclass, field
from typing import Any

import wordlists
from api import bootstrap
from api.config import Settings
from api.service import Service
from api.storage.memory import InMemoryRepository
from core.timing import Timing

POPULATIONS = (1, 10, 100, 1_000)
# Of people pressing Play, by language (the 13 of wordlists): most in English.
LANGUAGE_SHARES = {
    "en": 0.40,
    "es": 0.10,
    "pt": 0.08,
    "de": 0.07,
    "fr": 0.07,
    "ru": 0.06,
    "it": 0.05,
    "pl": 0.04,
    "nl": 0.04,
    "id": 0.03,
    "uk": 0.02,
    "uz": 0.02,
    "kk": 0.02,
}
RATING_MEAN, RATING_SD = 1000.0, 150.0
POLL_MS = 1_000  # the lobby screen's poll of GET /v1/queue (api/web/static/screens/lobby.js)
SWEEP_MS = 60_000  # the deployed schedule
T0 = 1_760_000_000_000
GOAL_P95_S = 20.0
GOAL_BOTS_AT_1000 = 0.10


def register(bench: Any) -> None:
    parser = bench.add_parser(
        "population",
        help="D18: wait from Play to the intro and house bots' share at 1 to 1,000 players",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--arrivals", type=int, default=400, help="people counted per population (after warm-up)"
    )
    parser.add_argument("--session", type=float, default=600.0, help="mean session, seconds")
    parser.add_argument("--warmup", type=float, default=120.0, help="seconds not counted")
    parser.add_argument(
        "--populations",
        type=lambda raw: tuple(int(x) for x in raw.split(",")),
        default=POPULATIONS,
        help="concurrent players, comma-separated (default 1,10,100,1000)",
    )
    parser.set_defaults(handler=run)


@dataclass
class Row:
    population: int
    people: int  # counted: arrived after the warm-up and reached an intro
    p50_s: float
    p95_s: float
    bot_share: float  # of the seats of the counted people's tournaments
    english_bot_share: float  # the same, of the English tournaments only
    shared_share: float  # of those tournaments, the share with at least two people
    tournaments: int
    languages: dict[str, int] = field(default_factory=dict)  # counted people by language


class Clock:
    def __init__(self) -> None:
        self.ms = T0

    def __call__(self) -> int:
        return self.ms


def simulate(
    population: int, arrivals: int, seed: int, session_s: float = 600.0, warmup_s: float = 120.0
) -> Row:
    """One population's run: `arrivals` counted people (and the warm-up's before them)."""
    rng = random.Random(seed * 7919 + population)
    clock = Clock()
    repo = InMemoryRepository()
    settings = Settings(timing=Timing(), rate_limits=False, house_bots=True)
    service: Service = bootstrap.service(settings, repo, clock=clock, seed=seed)
    rate_per_ms = population / (session_s * 1000)
    warmup_end = T0 + round(warmup_s * 1000)
    languages, weights = list(LANGUAGE_SHARES), list(LANGUAGE_SHARES.values())
    assert set(languages) == set(wordlists.LANGUAGES), "a share for each of the 13 languages"

    order = itertools.count()
    events: list[tuple[int, int, str, str]] = []  # (at, order, kind, player id)
    played: dict[str, int] = {}  # player id: when they pressed Play
    counted: set[str] = set()
    language_of: dict[str, str] = {}
    intro_wait_ms: list[int] = []
    tournaments: set[str] = set()
    arrived = 0

    def schedule(at: int, kind: str, pid: str = "") -> None:
        heapq.heappush(events, (at, next(order), kind, pid))

    schedule(T0 + round(rng.expovariate(rate_per_ms)), "arrive")
    schedule(T0 + SWEEP_MS, "sweep")
    while events:
        at, _, kind, pid = heapq.heappop(events)
        clock.ms = at
        if kind == "sweep":
            if len(intro_wait_ms) < arrivals or any(p in played for p in counted):
                schedule(at + SWEEP_MS, "sweep")
            service.sweep()
        elif kind == "arrive":
            if at >= warmup_end and arrived >= arrivals:
                continue  # enough counted: the rest only play out
            language = rng.choices(languages, weights)[0]
            rating = round(rng.gauss(RATING_MEAN, RATING_SD))
            record, _ = service.players.create("bench", rating=rating)
            service.queue.join(record, language)
            played[record.id] = at
            language_of[record.id] = language
            if at >= warmup_end:
                counted.add(record.id)
                arrived += 1
            schedule(at + POLL_MS, "poll", record.id)
            schedule(at + max(1, round(rng.expovariate(rate_per_ms))), "arrive")
        else:  # a poll of the queue, as the lobby screen's
            me = repo.get_player(pid)
            assert me is not None
            service.contact(me)
            status = service.queue.status(me)
            if status["queued"]:
                schedule(at + POLL_MS, "poll", pid)
                continue
            me = repo.get_player(pid)
            assert me is not None and me.tournament_id is not None, "queued, then nowhere"
            if pid in counted:
                t = repo.get_tournament(me.tournament_id)
                assert t is not None
                intro_wait_ms.append(t.tournament.created_at - played[pid])
                tournaments.add(me.tournament_id)
            played.pop(pid)
        if len(intro_wait_ms) >= arrivals and not any(p in played for p in counted):
            break
    return _row(population, repo, intro_wait_ms, tournaments, counted, language_of)


def _row(
    population: int,
    repo: InMemoryRepository,
    waits: list[int],
    tournaments: set[str],
    counted: set[str],
    language_of: dict[str, str],
) -> Row:
    seats = bots = shared = english_seats = english_bots = 0
    for tid in tournaments:
        record = repo.get_tournament(tid)
        assert record is not None
        ids = [p.id for p in record.tournament.players]
        house = sum(p.house for p in repo.get_players(ids))
        seats, bots = seats + len(ids), bots + house
        if record.tournament.language == "en":
            english_seats, english_bots = english_seats + len(ids), english_bots + house
        shared += len(ids) - house >= 2
    quantiles = statistics.quantiles(waits, n=20, method="inclusive") if len(waits) > 1 else []
    p50 = statistics.median(waits) / 1000
    p95 = (quantiles[18] if quantiles else waits[0]) / 1000
    by_language: dict[str, int] = {}
    for pid in counted:
        by_language[language_of[pid]] = by_language.get(language_of[pid], 0) + 1
    return Row(
        population,
        len(waits),
        p50,
        p95,
        bots / max(1, seats),
        english_bots / max(1, english_seats),
        shared / max(1, len(tournaments)),
        len(tournaments),
        by_language,
    )


def report(rows: list[Row], session_s: float) -> None:
    print(
        "D18, people arriving at random (Poisson) over the 13 languages (40 % English), rated "
        f"N(1000, 150); a mean session of {session_s:g} s; the sweep once a minute; the "
        "service on the in-memory store, simulated time:"
    )
    print(
        "  concurrent  arrivals/s  people  Play→intro p50    p95  bots' seats (English)"
        "  tournaments with ≥2 people"
    )
    for r in rows:
        print(
            f"  {r.population:10d}  {r.population / session_s:10.3f}  {r.people:6d}"
            f"  {r.p50_s:12.1f} s {r.p95_s:5.1f} s  {100 * r.bot_share:9.1f} %"
            f" ({100 * r.english_bot_share:4.1f} %)  {100 * r.shared_share:9.1f} % of "
            f"{r.tournaments}"
        )
    worst = max(r.p95_s for r in rows)
    print(f"goal p95 <= {GOAL_P95_S:g} s at every population: worst {worst:.1f} s")
    at_1000 = [r for r in rows if r.population == 1_000]
    if at_1000:
        print(
            f"goal bots < {100 * GOAL_BOTS_AT_1000:g} % of seats at 1,000 players: "
            f"{100 * at_1000[0].bot_share:.1f} %"
        )


def run(args: argparse.Namespace) -> int:
    rows = [
        simulate(n, args.arrivals, args.seed, args.session, args.warmup) for n in args.populations
    ]
    report(rows, args.session)
    return 0
