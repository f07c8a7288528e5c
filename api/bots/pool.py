"""`make run`'s bot pool: when a person has waited `WT_BOT_FILL_SECONDS` in a lobby, bots of a
nearby rating take the empty seats, play the tournament, and come back for the next lobby.

How it notices and how it acts are kept apart on purpose:

- **Noticing** costs nothing extra: a hook on the app sees every lobby a `POST /v1/queue` or a
  group start answers with, and the pool then reads those lobbies and their players read-only
  from the repository once a second (who is a person, since when they wait).
- **Acting** goes through the public API only: each bot is a `BotClient` with its own token,
  created with the bot key, that sits down with `POST /v1/queue` (D6 seats it in the fullest
  eligible lobby: the person's, which is checked) and then plays by polling like anyone else.
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass, field
from typing import Protocol

from flask import Flask, Response, g, request

from api.bots.client import BotClient, PlayOptions, play_tournament
from api.bots.http import ApiError, Http
from api.config import Settings
from api.service.context import wall_clock_ms
from api.storage.repository import Lobbies, Players, StorageError
from core.bots import Skill, skill_for_rating
from core.rating import START_RATING

log = logging.getLogger("wordle_tournament")

MAX_BOTS = 64  # bot players (and threads) one pool may have at once
RATING_SLACK = 120  # an idle bot fills a lobby whose rating is at most this far from its own
NEW_BOT_SPREAD = 50  # new bots start within this many points of the lobby's rating


@dataclass(eq=False)
class Bot:
    client: BotClient
    rating: int
    skill: Skill
    rng: random.Random = field(default_factory=random.Random)

    @property
    def id(self) -> str:
        return self.client.player_id or ""


class Seats(Players, Lobbies, Protocol):
    """What the pool reads of storage: the lobbies it watches and who sits in them."""


class BotPool:
    def __init__(
        self,
        base_url: str,
        settings: Settings,
        repo: Seats,
        *,
        max_bots: int = MAX_BOTS,
        tick_s: float = 1.0,
        rng: random.Random | None = None,
        options: PlayOptions | None = None,
    ) -> None:
        if not settings.bot_key:
            raise ValueError("a bot pool needs settings.bot_key")
        self.base_url = base_url
        self.settings = settings
        self.repo = repo
        self.max_bots = max_bots
        self.tick_s = tick_s
        self.rng = rng or random.Random()
        self.options = options or PlayOptions()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._bots: dict[str, Bot] = {}  # every bot this pool made, by player id
        self._idle: list[Bot] = []
        self._tracked: set[str] = set()  # lobbies answered to someone's queue join
        self._filling: set[str] = set()
        self._seated: dict[str, list[Bot]] = {}  # our bots waiting in a lobby for its start
        self.tournaments: list[str] = []  # every tournament the pool's bots played in

    # ------------------------------------------------------------------ noticing

    def install(self, app: Flask) -> None:
        """Watch the answers to queue joins and group starts for lobbies to look after."""
        app.after_request(self._observe)

    def _observe(self, response: Response) -> Response:
        path = request.path
        joined = path == "/v1/queue" or (path.startswith("/v1/groups/") and path.endswith("/start"))
        if request.method == "POST" and response.status_code == 201 and joined:
            data = response.get_json(silent=True)
            by_bot = g.get("player_id") in self._bots
            if isinstance(data, dict) and data.get("tournament_id") is None and not by_bot:
                self.track(str(data["id"]))
        return response

    def track(self, lobby_id: str) -> None:
        with self._lock:
            self._tracked.add(lobby_id)

    # ------------------------------------------------------------------ the loop

    def start(self) -> None:
        threading.Thread(target=self._run, name="bot-pool", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            for bot in self._bots.values():
                bot.client.stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.tick_s):
            try:
                self.tick()
            except (StorageError, OSError) as exc:
                log.warning("bot pool tick failed", extra={"fields": {"error": str(exc)}})

    def tick(self) -> None:
        """Look at each tracked lobby once: fill it, start our bots' game, or let it go."""
        with self._lock:
            tracked = list(self._tracked)
        for lobby_id in tracked:
            record = self.repo.get_lobby(lobby_id)
            self._reconcile(lobby_id, {s.player for s in record.lobby.seats} if record else set())
            if record is not None and record.moved_to is not None and not record.lobby.seats:
                self._untrack(lobby_id)  # D15: its players moved into another lobby
                self.track(record.moved_to)
                continue
            if record is None or record.tournament_id is not None:
                self._untrack(lobby_id)
                if record is not None and record.tournament_id is not None:
                    self._launch(lobby_id, record.tournament_id)
                continue
            seats = [s.player for s in record.lobby.seats]
            people = [p for p in self.repo.get_players(seats) if not p.bot]
            if not people:  # the person left: our bots leave too
                self._untrack(lobby_id)
                self._release_seated(lobby_id, leave=True)
                continue
            now = wall_clock_ms()
            waited = now - min(p.queued_at or now for p in people)
            if waited < self.settings.bot_fill_ms or record.lobby.open_seats == 0:
                continue
            with self._lock:
                if lobby_id in self._filling:
                    continue
                self._filling.add(lobby_id)
            rating = round(record.lobby.rating)
            args = (lobby_id, record.lobby.language, record.lobby.open_seats, rating)
            threading.Thread(target=self._fill, args=args, daemon=True).start()

    def _reconcile(self, lobby_id: str, seated: set[str]) -> None:
        """Our bots that are no longer seated in `lobby_id` (moved with a merge (D15), started
        elsewhere, or freed after 60 s without contact (D16)): follow them where they are."""
        with self._lock:
            bots = self._seated.get(lobby_id, [])
            gone = [b for b in bots if b.id not in seated]
            self._seated[lobby_id] = [b for b in bots if b.id in seated]
        if not gone:
            return
        players = {p.id: p for p in self.repo.get_players([b.id for b in gone])}
        for bot in gone:
            p = players.get(bot.id)
            if p is not None and p.lobby_id is not None:
                with self._lock:
                    self._seated.setdefault(p.lobby_id, []).append(bot)
                self.track(p.lobby_id)
            elif p is not None and p.tournament_id is not None:
                self._play_in(bot, p.tournament_id)
            else:
                self._release(bot)

    def _untrack(self, lobby_id: str) -> None:
        with self._lock:
            self._tracked.discard(lobby_id)

    # ------------------------------------------------------------------ acting (HTTP only)

    def _new_bot(self, rating: int) -> Bot | None:
        with self._lock:
            if len(self._bots) >= self.max_bots:
                return None
        client = BotClient(Http(self.base_url))
        start = max(0, rating + self.rng.randint(-NEW_BOT_SPREAD, NEW_BOT_SPREAD))
        profile = client.create_player(bot=True, bot_key=self.settings.bot_key, rating=start)
        bot = Bot(client, profile["rating"], skill_for_rating(profile["rating"]))
        bot.rng.seed(self.rng.random())
        with self._lock:
            self._bots[bot.id] = bot
            if self._stop.is_set():
                client.stop.set()
        return bot

    def _take(self, rating: int) -> Bot | None:
        """An idle bot near `rating`, or a new one."""
        with self._lock:
            near = [b for b in self._idle if abs(b.rating - rating) <= RATING_SLACK]
            if near:
                bot = min(near, key=lambda b: abs(b.rating - rating))
                self._idle.remove(bot)
                return bot
        return self._new_bot(rating)

    def _release(self, bot: Bot) -> None:
        with self._lock:
            if bot not in self._idle:
                self._idle.append(bot)

    def _fill(self, lobby_id: str, language: str, seats: int, rating: int) -> None:
        seated = 0
        original = lobby_id
        try:
            for _ in range(seats):
                if self._stop.is_set():
                    return
                bot = self._take(rating)
                if bot is None:
                    log.warning("bot pool is full", extra={"fields": {"lobby_id": lobby_id}})
                    return
                try:
                    lobby = bot.client.join_queue(language)
                except (ApiError, OSError) as exc:
                    log.warning("bot could not queue", extra={"fields": {"error": str(exc)}})
                    self._release(bot)
                    return
                if lobby["id"] != lobby_id and lobby["tournament_id"] is None:
                    moved = self.repo.get_lobby(lobby_id)
                    if moved is None or moved.moved_to != lobby["id"]:
                        self._leave_queue(bot)  # someone else took the last seats first
                        return
                    lobby_id = lobby["id"]  # D15: the person's lobby merged into this one
                    self.track(lobby_id)
                with self._lock:
                    self._seated.setdefault(lobby["id"], []).append(bot)
                seated += 1
                if lobby["tournament_id"] is not None:
                    self._launch(lobby["id"], lobby["tournament_id"])
                    return
                rating = lobby["rating"] if lobby["rating"] is not None else rating
        finally:
            with self._lock:
                self._filling.discard(original)
                self._filling.discard(lobby_id)
            fields = {"lobby_id": lobby_id, "bots": seated, "open_seats": seats}
            log.info("bots sat down in a lobby", extra={"fields": fields})

    def _leave_queue(self, bot: Bot) -> None:
        try:
            bot.client.leave_queue()
        except (ApiError, OSError) as exc:
            log.warning("bot could not leave a lobby", extra={"fields": {"error": str(exc)}})
        self._release(bot)

    def _release_seated(self, lobby_id: str, *, leave: bool) -> None:
        with self._lock:
            bots = self._seated.pop(lobby_id, [])
        for bot in bots:
            if leave:
                threading.Thread(target=self._leave_queue, args=(bot,), daemon=True).start()
            else:
                self._release(bot)

    def _launch(self, lobby_id: str, tournament_id: str) -> None:
        """The lobby is full: each of our bots in it plays the tournament in its own thread."""
        with self._lock:
            bots = self._seated.pop(lobby_id, [])
        for bot in bots:
            self._play_in(bot, tournament_id)

    def _play_in(self, bot: Bot, tournament_id: str) -> None:
        with self._lock:
            if tournament_id not in self.tournaments:
                self.tournaments.append(tournament_id)
        args = (bot, tournament_id)
        threading.Thread(target=self._play, args=args, name=f"bot-{bot.id}", daemon=True).start()

    def _play(self, bot: Bot, tournament_id: str) -> None:
        try:
            play_tournament(bot.client, tournament_id, bot.skill, bot.rng, self.options)
            bot.rating = int(bot.client.me().get("rating", START_RATING))
        except (ApiError, OSError) as exc:
            log.warning("bot stopped playing", extra={"fields": {"error": str(exc)}})
        finally:
            self._release(bot)
