"""`wordle-tournament bench polls`: the poll policy over whole tournaments in simulated time.

Eight bots per tournament play through the real service and HTTP app (in-memory storage, a
simulated clock) with the load test's skills and thinking times, each following `Poll-Interval`
to the millisecond with a fixed round trip. In seconds instead of the real-timer load test's
fourteen minutes it prints what the policy costs and what players see: polls per
player-minute by situation, staleness of the opponent's rows, how late players of a new round
first see it, and the cost ratio to polling every second, from the price model with per-request
units measured elsewhere (`bench api`, the load test). Use it to weigh a policy change; the load
test remains the measurement.
"""

from __future__ import annotations

import argparse
import heapq
import json
import logging
import math
import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import wordlists
from api import bootstrap
from api.bots.brain import DuelBrain
from api.bots.client import GUESSES, STATE, board_rows, lexicon, to_play
from api.cli.bench import poll_what_if as what_if
from api.config import Settings
from api.http import logs
from api.http.app import create_app
from api.loadtest.harness import SKILL_MIX
from api.loadtest.prices import Bill, PriceModel
from api.loadtest.situations import situation
from api.storage.memory import InMemoryRepository
from core.bots import MEDIUM, Skill, think_seconds
from core.timing import Timing

T0 = 1_760_000_000_000
# docs/simulator.md's players: a median of half the turn (15 s of 30), log-normal spread 0.4; they
# play words like the medium bot.
PEOPLE = replace(MEDIUM, name="people", think_median=0.5, think_sigma=0.4)


@dataclass(frozen=True, slots=True)
class Units:
    """What one request uses, for the price model: by default as a short real-timer load test
    on DynamoDB Local measured them (its JSON's per-endpoint `mean`, the meter's touch), or
    read from such a JSON with --units."""

    poll_ms: float = 10.0
    # Eventually consistent reads: the tournament, 0.5, and the token's player, 0.5, unless
    # its poll pass answers an unchanged state (runs I1 and I2: 0.673 and 0.666).
    poll_read_units: float = 0.67
    poll_log_bytes: float = 3.0  # one successful read in 100 is logged
    guess_ms: float = 24.0
    guess_read_units: float = 2.0
    guess_write_units: float = 2.7
    guess_log_bytes: float = 264.0
    touch_write_units: float = 1.6  # a last-contact stamp on the tournament item (D9)

    @classmethod
    def from_loadtest(cls, report: dict[str, Any]) -> Units:
        endpoints = report["requests"]["by_endpoint"]
        poll = endpoints[f"GET {STATE}"]["mean"]
        guess = endpoints[f"POST {GUESSES}"]["mean"]
        touch = report["dynamodb"]["by_operation"]["touch"]
        return cls(
            poll_ms=poll["server_ms"],
            poll_read_units=poll["read_units"],
            poll_log_bytes=poll["log_bytes"],
            guess_ms=guess["server_ms"],
            guess_read_units=guess["read_units"],
            guess_write_units=guess["write_units"],
            guess_log_bytes=guess["log_bytes"],
            touch_write_units=touch["write_units"] / touch["calls"],
        )


def register(bench: Any) -> None:
    p = bench.add_parser("polls", help="the poll policy over whole tournaments, simulated time")
    p.add_argument("--tournaments", type=int, default=6)
    p.add_argument("--turn-seconds", type=float, default=30.0)
    p.add_argument("--intro-seconds", type=float, default=6.0)
    p.add_argument(
        "--rtt-ms",
        default="20",
        help="round trip of every request, server time included: one, or several "
        "(20,100,200: each played with the same seeds) (20)",
    )
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--people",
        action="store_true",
        help="players who think like the simulator's people (15 s median, spread 0.4)",
    )
    p.add_argument(
        "--units", type=Path, help="a load test's loadtest.json: per-request units from it"
    )
    p.add_argument(
        "--what-if",
        action="store_true",
        help="the same tournaments under variants of the advice and prices the service does "
        "not use: what a larger saving would take from players (api/cli/bench/poll_what_if.py)",
    )
    p.set_defaults(handler=run)


@dataclass
class Bot:
    id: str
    headers: dict[str, str]
    skill: Skill
    rng: random.Random
    view: dict[str, Any] | None = None
    etag: str | None = None
    planned: tuple[str, int] | None = None
    act_at: int | None = None
    brains: dict[str, DuelBrain] = field(default_factory=dict)
    done: bool = False
    active_ms: int = 0


@dataclass
class Tally:
    polls: Counter[str] = field(default_factory=Counter)
    guesses: int = 0
    touches: int = 0  # last-contact writes (D9)
    active_ms: int = 0
    staleness: list[int] = field(default_factory=list)
    notice: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)


class _Counted(InMemoryRepository):
    """The in-memory store, counting the last-contact writes (D9) into a tally."""

    def __init__(self, tally: Tally) -> None:
        super().__init__()
        self.tally = tally

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        self.tally.touches += 1
        super().touch(tournament_id, player_id, now)


def play(
    seed: int, timing: Timing, rtt: int, tally: Tally, skills: Sequence[Skill] = SKILL_MIX
) -> None:
    """One tournament of a group of eight bots, to its end (the leader watches it all)."""
    clock = [T0]
    settings = Settings(timing=timing, rate_limits=False)
    rng = random.Random(seed)
    repo = _Counted(tally)
    service = bootstrap.service(settings, repo, clock=lambda: clock[0], seed=seed)
    client = create_app(service).test_client()
    bots = []
    for skill in skills:
        made = client.post("/v1/players").get_json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        bots.append(Bot(made["id"], auth, skill, random.Random(rng.random())))
    leader = bots[0]
    group = client.post("/v1/groups", json={"language": "en"}, headers=leader.headers).get_json()
    for bot in bots[1:]:
        code = {"invite_code": group["invite_code"]}
        client.post("/v1/groups/join", json=code, headers=bot.headers)
    start = client.post(f"/v1/groups/{group['id']}/start", headers=leader.headers).get_json()
    url = f"/v1/tournaments/{start['tournament_id']}"
    guessed: dict[tuple[str, int], int] = {}
    seen: dict[tuple[str, int], int] = {}
    first_seen: dict[tuple[str, int], int] = {}
    intros: dict[int, int] = {}
    queue = [(clock[0], i, "poll") for i in range(len(bots))]

    def take(bot: Bot, r: Any, arrived: int) -> int:
        if r.status_code == 200:
            view = bot.view = r.get_json()
            bot.etag = r.headers["ETag"]
            intros[view["round"]] = view["intro_at"]
            duel = view["duel"]
            if duel is not None or view["bye"] == bot.id:
                first_seen.setdefault((bot.id, view["round"]), arrived)
            for i, row in enumerate(duel["rows"] if duel else []):
                if row["by"] != bot.id and not row.get("skipped"):
                    seen.setdefault((duel["id"], i), arrived)
        return round(float(r.headers["Poll-Interval"]) * 1000)

    while queue:
        now, i, kind = heapq.heappop(queue)
        bot = bots[i]
        clock[0] = now
        if kind == "act":
            answer = _guess(client, url, bot, guessed, tally)
            wait = take(bot, answer, now + rtt) if answer is not None else 0
        else:
            headers = {**bot.headers, **({"If-None-Match": bot.etag} if bot.etag else {})}
            tally.polls[situation(bot.view, bot.id, now)] += 1
            wait = take(bot, client.get(f"{url}/state", headers=headers), now + rtt)
            assert bot.view is not None
            me = next(p for p in bot.view["players"] if p["id"] == bot.id)
            if bot.view["phase"] == "finished" or (me["lives"] == 0 and bot is not leader):
                bot.done, bot.active_ms = True, now - T0
                continue
            mine = _plan(bot, timing, now + rtt)
            if mine and bot.act_at is not None and bot.act_at <= now + rtt + wait:
                heapq.heappush(queue, (bot.act_at, i, "act"))
                continue
        heapq.heappush(queue, (now + rtt + wait, i, "poll"))
    tally.active_ms += sum(b.active_ms for b in bots)
    tally.staleness += [seen[k] - guessed[k] for k in seen if k in guessed]
    tally.notice += [ms - intros[n] for (_, n), ms in first_seen.items() if n > 1]
    assert leader.view is not None
    tally.rounds.append(leader.view["round"])


def _plan(bot: Bot, timing: Timing, now: int) -> bool:
    """Like the bots' game loop: on a new turn of its own, decide when to play."""
    assert bot.view is not None
    duel = bot.view["duel"]
    if not to_play(duel, bot.id):
        return False
    key = (duel["id"], len(duel["rows"]))
    if key != bot.planned:
        bot.planned = key
        think = think_seconds(bot.skill, timing.turn_ms / 1000, bot.rng)
        begins = max(now, duel["starts_at"])  # a turn that begins when the intro ends
        left = (duel["deadline"] - begins) / 1000
        margin = max(0.15, 0.1 * timing.turn_ms / 1000)
        bot.act_at = None if think is None else begins + int(1000 * min(think, left - margin))
    return True


def _guess(client: Any, url: str, bot: Bot, guessed: dict[Any, int], tally: Tally) -> Any:
    assert bot.view is not None and bot.view["duel"] is not None
    duel = bot.view["duel"]
    brain = bot.brains.get(duel["id"])
    if brain is None:
        words = lexicon("en", duel["word_length"])
        brain = bot.brains[duel["id"]] = DuelBrain(words, bot.skill, bot.rng)
    brain.observe(board_rows(duel))
    bot.act_at = None
    for _ in range(3):
        word = brain.choose()
        body = {"row": len(duel["rows"]), "word": wordlists.display("en", word)}
        r = client.post(f"{url}/guesses", json=body, headers=bot.headers)
        tally.guesses += 1
        if r.status_code == 422:
            brain.reject(word)
            continue
        if r.status_code == 200:
            guessed[duel["id"], body["row"]] = r.get_json()["server_time"]
            return r
        return None
    return None


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def late_share(values: list[int], limit_ms: int = 1_200) -> float:
    return sum(v > limit_ms for v in values) / len(values)


def cost_ratio(tally: Tally, prices: PriceModel, units: Units) -> tuple[float, float]:
    """(measured, naive) dollars for the tournaments played: the naive policy polls every
    second while playing and writes a last-contact stamp on every poll."""
    u = units
    n = tally.guesses
    guesses = Bill(
        n,
        n * prices.lambda_gb_seconds(u.guess_ms),
        n * u.guess_read_units,
        n * u.guess_write_units,
        n * u.guess_log_bytes,
    )

    def polling(n: float, writes: float) -> Bill:
        gb_s = prices.lambda_gb_seconds(u.poll_ms)
        return Bill(n, n * gb_s, n * u.poll_read_units, writes, n * u.poll_log_bytes)

    polls = sum(tally.polls.values())
    measured = polling(polls, tally.touches * u.touch_write_units) + guesses
    naive_polls = tally.active_ms / 1000
    naive = polling(naive_polls, naive_polls * u.touch_write_units) + guesses
    return measured.dollars(prices)["total"], naive.dollars(prices)["total"]


def round_trips(text: str) -> list[int]:
    found = [int(part) for part in text.split(",") if part.strip()]
    if not found or any(ms < 0 for ms in found):
        raise ValueError("--rtt-ms takes round trips in ms, e.g. 20 or 20,100,200")
    return found


def run(args: argparse.Namespace) -> int:
    logs.configure().setLevel(logging.ERROR)
    timing = Timing(turn_ms=int(args.turn_seconds * 1000), intro_ms=int(args.intro_seconds * 1000))
    skills = [PEOPLE] * len(SKILL_MIX) if args.people else SKILL_MIX
    units = Units.from_loadtest(json.loads(args.units.read_text())) if args.units else Units()
    rtts = round_trips(args.rtt_ms)
    if args.what_if:
        print(
            f"{args.tournaments} tournaments a variant, round trip {rtts[0]} ms, players "
            f"thinking like {'people' if args.people else 'the bots'}"
        )
        what_if.table(
            lambda: _played(args, timing, rtts[0], skills), lambda t, p: summary(t, p, units)
        )
        return 0
    rows = []
    for rtt in rtts:
        tally = _played(args, timing, rtt, skills)
        rows.append((rtt, tally))
        if len(rtts) > 1:
            print(f"== round trip {rtt} ms")
        report(args, rtt, tally, units)
    if len(rows) > 1:
        print("round trip  polls/player-min  staleness p50/p95 (late)  new round p95 (late)  ratio")
        for rtt, tally in rows:
            measured, naive = cost_ratio(tally, PriceModel(), units)
            polls = sum(tally.polls.values())
            print(
                f"{rtt:>7} ms  {polls / (tally.active_ms / 60_000):16.1f}  "
                f"{percentile(tally.staleness, 50):>6} / {percentile(tally.staleness, 95):>5} ms "
                f"({late_share(tally.staleness):5.1%})  "
                f"{percentile(tally.notice, 95):>8} ms ({late_share(tally.notice):5.1%})  "
                f"{naive / measured:5.2f}×"
            )
    return 0


def _played(args: argparse.Namespace, timing: Timing, rtt: int, skills: Sequence[Skill]) -> Tally:
    tally = Tally()
    for n in range(args.tournaments):
        play(args.seed * 1000 + n, timing, rtt, tally, skills)
    return tally


def summary(tally: Tally, prices: PriceModel, units: Units) -> dict[str, Any]:
    """The figures of a tally that the --what-if table compares."""
    measured, naive = cost_ratio(tally, prices, units)
    return {
        "polls_per_minute": sum(tally.polls.values()) / (tally.active_ms / 60_000),
        "staleness_p95": percentile(tally.staleness, 95),
        "staleness_late": late_share(tally.staleness),
        "new_round_p95": percentile(tally.notice, 95),
        "new_round_late": late_share(tally.notice),
        "ratio": naive / measured,
    }


def report(args: argparse.Namespace, rtt: int, tally: Tally, units: Units) -> None:
    minutes = tally.active_ms / 60_000
    polls = sum(tally.polls.values())
    print(
        f"{args.tournaments} tournaments, {statistics.mean(tally.rounds):.1f} rounds on average, "
        f"{minutes / args.tournaments:.0f} player-minutes each, round trip {rtt} ms, "
        f"players thinking like {'people' if args.people else 'the bots'}"
    )
    print(f"polls per player-minute: {polls / minutes:.1f}, guesses {tally.guesses / minutes:.1f}")
    for name, count in tally.polls.most_common():
        print(f"  {name:<20} {count / minutes:5.1f}")
    stale, notice = tally.staleness, tally.notice
    print(
        f"staleness (opponent's guess → seen): p50 {percentile(stale, 50)} ms, "
        f"p95 {percentile(stale, 95)} ms, max {max(stale)} ms over {len(stale)} rows, "
        f"{late_share(stale):.1%} later than 1.2 s"
    )
    print(
        f"new round seen by its players after: p50 {percentile(notice, 50)} ms, "
        f"p95 {percentile(notice, 95)} ms, max {max(notice)} ms over {len(notice)}, "
        f"{late_share(notice):.1%} later than 1.2 s"
    )
    measured, naive = cost_ratio(tally, PriceModel(), units)
    print(
        f"modelled cost per tournament: ${measured / args.tournaments:.5f}, polling every "
        f"second ${naive / args.tournaments:.5f}: {naive / measured:.2f}× (a model; the load "
        f"test measures)"
    )
