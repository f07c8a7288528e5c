"""The sample: whole tournaments played by simulated players through the real app, from their
start to each player's results, metered per phase and per key (api/scale/world.py).

Two kinds, as players come to them: tournaments of eight players who queued together (they join
within two seconds, so their lobby fills at once, as in a busy queue; the queue itself is
measured at full size in api/scale/queue.py), and friend groups whose leader starts the next
tournament a short pause after the last one finished, their members watching to the end (R22).
The sweep runs once a minute, as on Lambda. What the sample gives per tournament does not
depend on how many others run at the same time: tournaments share no item, only index shards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import partial

import wordlists
from api.scale.players import RTT_MS, Player
from api.scale.population import Population
from api.scale.world import World
from api.service.sweep import sweep
from api.storage.layout import Layout
from api.storage.records import StatsRecord
from api.storage.repository import Put
from core.results import Result
from core.stats import add
from core.timing import PLAYERS_PER_TOURNAMENT, Timing

SWEEP_EVERY_MS = 60_000  # EventBridge's rate(1 minute)
SESSIONS = 16  # session starts measured, of each kind
ACTIVE_SEEDED = 2_000  # players on the leaderboards besides the sample's (full top 100s)
LEADERBOARD_DAYS = 30
PROBE_MS = 2_000  # how often the sample counts due tournaments (not a request: no cost)
WATCH_SHARE = 0.25  # of queue players knocked out: watch until the end (R9)


@dataclass
class SampleResult:
    world: World
    queue_tournaments: int
    group_tournaments: int
    queue_players: list[Player]
    group_players: list[Player]
    durations_ms: list[int] = field(default_factory=list)  # start to finish, every tournament
    started_at: int = 0
    ended_at: int = 0
    sweep_due: list[int] = field(default_factory=list)
    due_probes: list[tuple[int, int]] = field(default_factory=list)  # (due, live), every 2 s

    sessions: int = SESSIONS
    refreshes: int = 0  # the leaderboards' refreshes run (with the sweep, once a minute)
    active_players: int = 0  # on the leaderboards: seeded, and the sample's who finished

    @property
    def due_share(self) -> float:
        """The share of live tournaments past a deadline that no request has advanced yet."""
        live = sum(n for _, n in self.due_probes)
        return sum(d for d, _ in self.due_probes) / live if live else 0.0

    @property
    def tournaments(self) -> int:
        return self.queue_tournaments + self.group_tournaments


class Sample:
    def __init__(
        self,
        layout: Layout,
        population: Population,
        seed: int,
        creations_per_minute: int = 600,
        timing: Timing | None = None,
    ) -> None:
        """`timing`: the game's timers (default the real ones; tests play shorter turns)."""
        self.world = World(layout, seed, creations_per_minute=creations_per_minute, timing=timing)
        self.population = population
        self.rng = random.Random(seed)
        self.queue_players: list[Player] = []
        self.group_players: list[Player] = []
        self.starts: dict[str, int] = {}
        self.durations: list[int] = []
        self.queue_started = 0
        self.group_started = 0
        self.sweep_due: list[int] = []  # due tournaments each sweep found
        self.due_probes: list[tuple[int, int]] = []
        self.refreshes = 0
        self._addresses = 0

    def player(self, rating: int, language: str) -> Player:
        """A player who exists before the run (its creation is measured apart)."""
        self._addresses += 1
        address = (
            f"10.{self._addresses >> 16 & 255}.{self._addresses >> 8 & 255}.{self._addresses & 255}"
        )
        player_id, token = self.world.new_player(rating)
        rng = random.Random(self.rng.random())
        return Player(self.world, player_id, token, rating, rng, address, language)

    def sessions(self, count: int) -> None:
        """What starting a session costs: a new player (POST /v1/players, then where it is) or
        a returning one (its token in the browser: where is it now?)."""
        w = self.world
        for i in range(count):
            address = f"192.0.2.{i % 250 + 1}"
            made = w.request(
                "session:new", "POST /v1/players", "POST", "/v1/players", address=address
            )
            token = made.get_json()["token"]
            for phase in ("session:new", "session:back"):
                w.request(phase, "GET /v1/me", "GET", "/v1/me", token=token, address=address)

    # ------------------------------------------------------------------ queue tournaments

    def queue_tournament(self, at: int) -> None:
        language = self.population.language(self.rng)
        centre = self.population.rating(self.rng)
        players = [
            self.player(centre + self.rng.randint(-60, 60), language)
            for _ in range(PLAYERS_PER_TOURNAMENT)
        ]
        for i, p in enumerate(players):
            p.watch = self.rng.random() < WATCH_SHARE
            p.on_seated = self._seated
            self.world.at(at + 200 * i, p.join_queue)
        self.queue_players += players

    def _seated(self, p: Player) -> None:
        p.on_seated = None

    # ------------------------------------------------------------------ groups

    def group(self, at: int, rounds: int) -> None:
        language = self.population.language(self.rng)
        centre = self.population.rating(self.rng)
        members = [
            self.player(centre + self.rng.randint(-150, 150), language)
            for _ in range(PLAYERS_PER_TOURNAMENT)
        ]
        for m in members:
            m.kind = "g"
        leader = members[0]
        self.group_players += members
        left = [rounds]

        def form() -> None:
            w = self.world
            made = w.request(
                "group:g",
                "POST /v1/groups",
                "POST",
                "/v1/groups",
                token=leader.token,
                body={"language": language},
                address=leader.address,
            ).get_json()
            for m in members:
                m.group = made["id"]
            for m in members[1:]:
                w.request(
                    "group:g",
                    "POST /v1/groups/join",
                    "POST",
                    "/v1/groups/join",
                    token=m.token,
                    body={"invite_code": made["invite_code"]},
                    address=m.address,
                )
            start()

        def start() -> None:
            gid = members[0].group
            lobby = self.world.request(
                "group:g",
                "POST group start",
                "POST",
                f"/v1/groups/{gid}/start",
                token=leader.token,
                address=leader.address,
            ).get_json()
            left[0] -= 1
            if left[0] == 0:
                for m in members:
                    m.last_round = True
            self.group_started += 1
            tid = lobby["tournament_id"]
            self.starts[tid] = self.world.now
            for m in members:
                if m is leader or m.tournament is None:
                    # The first time they wait on the group's screen (polled every 2 s); later
                    # they see it in their next poll's Where header.
                    delay = 0 if m is leader else self.rng.randint(0, 2_000)
                    self.world.at(self.world.now + delay, partial(m.play, tid))

        def finished(p: Player) -> None:
            if p is not leader:
                return
            if left[0] > 0:
                pause = int(self.population.after_s * 1000)
                self.world.at(self.world.now + pause, start)

        leader.on_free = finished
        self.world.at(at, form)

    # ------------------------------------------------------------------ the run

    def run(self, queue_tournaments: int, groups: int, group_rounds: int) -> SampleResult:
        w = self.world
        seed_active(w, self.population, self.rng, ACTIVE_SEEDED)
        self.sessions(SESSIONS)
        spread_ms = 90_000  # starts spread over the first minute and a half
        kinds = ["q"] * queue_tournaments + ["g"] * groups
        self.rng.shuffle(kinds)
        for i, kind in enumerate(kinds):
            at = w.now + i * spread_ms // max(1, len(kinds))
            if kind == "q":
                self.queue_tournament(at)
            else:
                self.group(at, group_rounds)
        start = w.now

        def swept() -> None:
            tournaments = w.service.tournaments
            done = w.background("sweep", lambda: sweep(w.ctx, tournaments, None))
            self.sweep_due.append(done.due)
            w.background("refresh", w.service.refresh_leaderboards)  # at most once a minute
            self.refreshes += 1
            if any(not p.stopped and p.tournament is not None for p in self.everyone()):
                w.at(w.now + SWEEP_EVERY_MS, swept)

        def probe() -> None:
            """How many live tournaments are past a deadline nobody has advanced yet: the
            sample's own, read by key (the deadline index of a large layout has many shards,
            and reading them all every 2 s was a third of the sample's time)."""
            ids = {p.tournament for p in self.everyone() if p.tournament} | set(self.starts)
            found = [w.unmetered(partial(w.repo.get_tournament, tid)) for tid in sorted(ids)]
            dues = [r.due for r in found if r is not None and r.due is not None]
            live, due = len(dues), sum(1 for at in dues if at <= w.now)
            self.due_probes.append((due, live))
            if live or w.now - start < 120_000:
                w.at(w.now + PROBE_MS, probe)

        w.at(w.now + SWEEP_EVERY_MS, swept)
        w.at(w.now + PROBE_MS, probe)
        for p in self.queue_players:
            p.on_free = self._queue_player_free
        w.run()
        self.queue_started = queue_tournaments
        result = SampleResult(
            w,
            self.queue_started,
            self.group_started,
            self.queue_players,
            self.group_players,
            self._durations(),
            start,
            w.now,
            self.sweep_due,
            self.due_probes,
            refreshes=self.refreshes,
            active_players=ACTIVE_SEEDED + sum(1 for p in self.everyone() if p.played),
        )
        return result

    def everyone(self) -> list[Player]:
        return self.queue_players + self.group_players

    def _queue_player_free(self, p: Player) -> None:
        p.stopped = True

    def _durations(self) -> list[int]:
        """Each tournament's length, start to finish, from the stored records."""
        found = []
        ids = {p.tournament for p in self.everyone() if p.tournament} | set(self.starts)
        for tid in ids:
            record = self.world.unmetered(partial(self.world.repo.get_tournament, tid))
            if record is not None and record.tournament.finished_at is not None:
                t = record.tournament
                found.append(t.finished_at - t.created_at)
        return found


def seed_active(world: World, population: Population, rng: random.Random, count: int) -> None:
    """Players who finished a tournament lately besides the sample's own, so that the
    leaderboards (top 100 and a histogram per board) are as large as in a busy deployment."""
    records = []
    for i in range(count):
        language, rating = population.language(rng), population.rating(rng)
        finished = world.now - rng.randrange(LEADERBOARD_DAYS * 86_400_000)
        result = Result(
            tournament_id=f"t_{rng.getrandbits(64):016x}",
            language=language,
            started_at=finished - 900_000,
            finished_at=finished,
            place=rng.randint(1, 8),
            rating_before=rating,
            rating_after=rating,
            rounds=7,
            won=3,
            drawn=1,
            lost=3,
            wins_in=(1, 1, 1),
            left=False,
        )
        player = f"p_{rng.getrandbits(64):016x}"
        stats = add(None, result, f"Player {i}", False, finished)
        records.append(Put(StatsRecord(player, stats), new=True))
    for start in range(0, len(records), 100):
        world.unmetered(partial(world.repo.commit, records[start : start + 100]))


def load_words(languages: list[str]) -> None:
    """Word lists load once per process: not part of any request's time."""
    for code in languages:
        wordlists.is_accepted(code, "x")


__all__ = ["RTT_MS", "Sample", "SampleResult", "load_words"]
