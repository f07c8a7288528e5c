"""Drive N concurrent tournaments of bot clients for a while, and record what they saw.

Each tournament slot is a group of 8 bots (R22): the leader creates the group, the others join
with the invite code, the leader starts, and the full lobby starts the tournament at once. That
keeps slots apart without racing for lobbies. When a tournament ends the leader starts the next
one, so N tournaments run side by side for the whole duration.

Every bot is an ordinary `BotClient` following the server's poll advice. Requests are attributed
to the slot's current tournament through the client's tag, so costs add up per tournament
(setting up the group counts towards the slot's first tournament).
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import wordlists
from api.bots.client import BotClient, PlayOptions, play_tournament
from api.bots.http import ApiError, Exchange, Http
from api.loadtest.situations import situation
from core.bots import EASY, HARD, MEDIUM, Skill

PLAYERS = 8
SKILL_MIX: tuple[Skill, ...] = (EASY, MEDIUM, HARD, MEDIUM, EASY, HARD, MEDIUM, HARD)


@dataclass
class TournamentRun:
    tag: str  # the slot's n-th tournament, e.g. "s3-1"
    tournament_id: str | None = None
    started: float | None = None  # wall clock
    ended: float | None = None
    finished: bool = False  # the tournament itself ended (phase "finished") within the run
    rounds: int = 0
    active_s: float = 0.0  # player-seconds spent in the tournament (until each stopped polling)


@dataclass
class Collector:
    """Thread-safe store of every exchange, guess and sighting. Also the bots' Observer."""

    exchanges: list[Exchange] = field(default_factory=list)
    guessed: dict[tuple[str, str, int], int] = field(default_factory=dict)  # → server ms
    seen: dict[tuple[str, str, int], int] = field(default_factory=dict)  # → wall ms, opponent
    # (tournament, viewer, round) → wall ms the viewer first saw it, and each round's intro
    round_seen: dict[tuple[str, str, int], int] = field(default_factory=dict)
    intros: dict[tuple[str, int], int] = field(default_factory=dict)
    runs: dict[str, TournamentRun] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    situations: Counter[str] = field(default_factory=Counter)  # polls by what they wait for
    _rows: dict[tuple[str, str], int] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def exchange(self, exchange: Exchange) -> None:
        with self._lock:
            self.exchanges.append(exchange)

    def polled(self, what: str) -> None:
        with self._lock:
            self.situations[what] += 1

    def guessed_row(self, tournament_id: str, duel_id: str, row: int, server_time: int) -> None:
        with self._lock:
            self.guessed[tournament_id, duel_id, row] = server_time

    def seen_rows(
        self, tournament_id: str, duel_id: str, viewer: str, rows: list[dict[str, Any]]
    ) -> None:
        now_ms = time.time_ns() // 1_000_000
        with self._lock:
            before = self._rows.get((viewer, duel_id), 0)
            for i in range(before, len(rows)):
                row = rows[i]
                if row["by"] != viewer and not row.get("skipped"):
                    self.seen.setdefault((tournament_id, duel_id, i), now_ms)
            self._rows[viewer, duel_id] = max(before, len(rows))

    def saw_round(self, tournament_id: str, viewer: str, number: int, intro_at: int) -> None:
        now_ms = time.time_ns() // 1_000_000
        with self._lock:
            self.round_seen.setdefault((tournament_id, viewer, number), now_ms)
            self.intros[tournament_id, number] = intro_at

    def round_notice_ms(self) -> list[int]:
        """For every player of every round after the first: from the round's intro start to
        the first state of it the player saw (R2: the intro should be seen whole)."""
        with self._lock:
            return [
                max(0, seen - self.intros[tid, number])
                for (tid, _, number), seen in self.round_seen.items()
                if number > 1
            ]

    def run(self, tag: str) -> TournamentRun:
        with self._lock:
            return self.runs.setdefault(tag, TournamentRun(tag))

    def add_active(self, tag: str, seconds: float) -> None:
        with self._lock:
            self.runs[tag].active_s += seconds

    def staleness_ms(self) -> list[int]:
        with self._lock:
            return [
                max(0, seen - self.guessed[key])
                for key, seen in self.seen.items()
                if key in self.guessed
            ]


class _Probe:
    """Adapts the Collector to the bots' Observer protocol."""

    def __init__(self, collector: Collector) -> None:
        self.c = collector

    def guessed(self, tournament_id: str, duel_id: str, row: int, server_time: int) -> None:
        self.c.guessed_row(tournament_id, duel_id, row, server_time)

    def seen(
        self, tournament_id: str, duel_id: str, viewer: str, rows: list[dict[str, Any]]
    ) -> None:
        self.c.seen_rows(tournament_id, duel_id, viewer, rows)

    def round_seen(self, tournament_id: str, viewer: str, number: int, intro_at: int) -> None:
        self.c.saw_round(tournament_id, viewer, number, intro_at)

    def polling(
        self, tournament_id: str, viewer: str, view: dict[str, Any] | None, now: int
    ) -> None:
        self.c.polled(situation(view, viewer, now))


@dataclass(frozen=True)
class HarnessConfig:
    url: str
    tournaments: int
    duration_s: float
    languages: tuple[str, ...] = ("en",)
    bot_key: str | None = None  # mark the players as bots (needs the server's key)
    think_scale: float = 1.0
    poll_cap_s: float | None = None  # None: follow the server's advice exactly
    seed: int = 1


class Harness:
    def __init__(self, config: HarnessConfig) -> None:
        self.config = config
        self.collector = Collector()
        self.stop = threading.Event()
        self.started = 0.0
        self.ended = 0.0
        self._clients: list[BotClient] = []
        self._lock = threading.Lock()

    def _client(self) -> BotClient:
        client = BotClient(Http(self.config.url, on_exchange=self.collector.exchange))
        with self._lock:
            self._clients.append(client)
            if self.stop.is_set():
                client.stop.set()
        return client

    def run(self) -> None:
        """Run every slot until the duration is over; returns when all bots have stopped."""
        self.started = time.time()
        slots = [
            threading.Thread(target=self._slot, args=(i,), name=f"slot-{i}", daemon=True)
            for i in range(self.config.tournaments)
        ]
        for t in slots:
            t.start()
        self.stop.wait(self.config.duration_s)
        self.stop.set()
        with self._lock:
            for client in self._clients:
                client.stop.set()
        for t in slots:
            t.join(timeout=30)
        self.ended = time.time()

    def _slot(self, index: int) -> None:
        try:
            self._play_slot(index)
        except (ApiError, OSError) as exc:
            if not self.stop.is_set():
                self.collector.failures.append(f"slot {index}: {exc}")

    def _play_slot(self, index: int) -> None:
        config = self.config
        rng = random.Random(config.seed * 1000 + index)
        language = config.languages[index % len(config.languages)]
        clients = [self._client() for _ in range(PLAYERS)]
        tag = f"s{index}-0"
        for client in clients:
            client.http.tag = tag
        self.collector.run(tag)
        for client in clients:
            client.create_player(bot=config.bot_key is not None, bot_key=config.bot_key)
        leader, *members = clients
        group = leader.create_group(language)
        for client in members:
            client.join_group(group["invite_code"])
        epoch = 0
        while not self.stop.is_set():
            tag = f"s{index}-{epoch}"
            for client in clients:
                client.http.tag = tag
            run = self.collector.run(tag)
            lobby = leader.start_group(group["id"])
            run.tournament_id, run.started = lobby["tournament_id"], time.time()
            views: list[dict[str, Any] | None] = [None] * PLAYERS
            threads = [
                threading.Thread(
                    target=self._play,
                    args=(client, run, SKILL_MIX[i], random.Random(rng.random()), i == 0, views, i),
                    daemon=True,
                )
                for i, client in enumerate(clients)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            run.ended = time.time()
            final = views[0]
            if final is not None:
                run.finished = final["phase"] == "finished"
                run.rounds = final["round"]
            if not run.finished:
                return
            epoch += 1

    def _play(
        self,
        client: BotClient,
        run: TournamentRun,
        skill: Skill,
        rng: random.Random,
        leader: bool,
        views: list[dict[str, Any] | None],
        slot: int,
    ) -> None:
        options = PlayOptions(
            think_scale=self.config.think_scale,
            poll_cap_s=self.config.poll_cap_s,
            watch=leader,  # the leader watches to the end, to start the next one
            observer=_Probe(self.collector),
        )
        t0 = time.time()
        try:
            views[slot] = play_tournament(client, run.tournament_id or "", skill, rng, options)
        except (ApiError, OSError) as exc:
            if not self.stop.is_set():
                self.collector.failures.append(f"{run.tag} {client.player_id}: {exc}")
        finally:
            self.collector.add_active(run.tag, time.time() - t0)


def languages(spec: str) -> tuple[str, ...]:
    """ "en", "en,de" or "all" (every language in turn, one per slot)."""
    if spec == "all":
        return tuple(wordlists.LANGUAGES)
    codes = tuple(code.strip() for code in spec.split(",") if code.strip())
    unknown = [c for c in codes if c not in wordlists.LANGUAGES]
    if unknown or not codes:
        raise ValueError(f"unknown language(s): {', '.join(unknown) or spec!r}")
    return codes
