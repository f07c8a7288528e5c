"""A bot as an ordinary API client: its own token, the public /v1 endpoints, nothing else.

`BotClient` wraps the endpoints a player uses; `play_tournament` is the game loop: poll the state
as the server advises (`ETag`/`If-None-Match`, `Poll-Interval`), and on its own turn think for a
while, then play the word its `DuelBrain` picks.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import wordlists
from api import words
from api.bots.brain import DuelBrain
from api.bots.http import ApiError, Http, Reply
from core.bots import Skill, think_seconds
from core.solver.board import Row
from core.solver.lexicon import Lexicon

STATE = "/v1/tournaments/<tournament_id>/state"
GUESSES = "/v1/tournaments/<tournament_id>/guesses"
RETRIES = 4  # answers 429/503 are retried after Retry-After, this many times
MAX_BACKOFF_S = 3.0
# Play at least this long before the turn's deadline: the guess must arrive in time, and the
# server may be slow to answer under load.
DEADLINE_MARGIN_S = 0.15
DEADLINE_MARGIN_TURNS = 0.1


def lexicon(language: str, length: int) -> Lexicon:
    """The bot's dictionary: the same public word lists any client may ship."""
    return words.lexicon(language, length)


class BotClient:
    """One player's view of the API. Raises ApiError for error answers it cannot retry."""

    def __init__(self, http: Http, token: str | None = None, player_id: str | None = None):
        self.http = http
        self.token = token
        self.bot_key: str | None = None  # sent with every request once a bot (make run's pool)
        self.player_id = player_id
        self.stop = threading.Event()  # set to end waits early (backoff, the game loop)

    def call(
        self,
        method: str,
        route: str,
        params: Mapping[str, str] | None = None,
        *,
        body: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        sent = dict(headers or {})
        if self.token is not None:
            sent["Authorization"] = f"Bearer {self.token}"
        if self.bot_key is not None:  # a bot pool's requests skip the per-address budgets
            sent["X-Bot-Key"] = self.bot_key
        for attempt in range(RETRIES + 1):
            reply = self.http.request(method, route, params, body=body, headers=sent)
            if reply.status < 400:
                return reply
            error = ApiError(reply)
            if reply.status not in (429, 503) or attempt == RETRIES:
                raise error
            self.stop.wait(min(error.retry_after or 1.0, MAX_BACKOFF_S))
        raise AssertionError("unreachable")

    # ------------------------------------------------------------------ players

    def create_player(
        self, *, bot: bool = False, bot_key: str | None = None, rating: int | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {}
        headers: dict[str, str] = {}
        if bot:
            body["bot"] = True
            if rating is not None:
                body["rating"] = rating
            self.bot_key = bot_key
        reply = self.call("POST", "/v1/players", body=body, headers=headers)
        profile: dict[str, Any] = reply.body
        self.token, self.player_id = profile["token"], profile["id"]
        return profile

    def me(self) -> dict[str, Any]:
        body: dict[str, Any] = self.call("GET", "/v1/me").body
        return body

    # ------------------------------------------------------------------ lobbies and groups

    def join_queue(self, language: str) -> dict[str, Any]:
        body: dict[str, Any] = self.call("POST", "/v1/queue", body={"language": language}).body
        return body

    def leave_queue(self) -> None:
        self.call("DELETE", "/v1/queue")

    def lobby(self, lobby_id: str) -> dict[str, Any]:
        body: dict[str, Any] = self.call(
            "GET", "/v1/lobbies/<lobby_id>", {"lobby_id": lobby_id}
        ).body
        return body

    def create_group(self, language: str) -> dict[str, Any]:
        body: dict[str, Any] = self.call("POST", "/v1/groups", body={"language": language}).body
        return body

    def join_group(self, invite_code: str) -> dict[str, Any]:
        reply = self.call("POST", "/v1/groups/join", body={"invite_code": invite_code})
        body: dict[str, Any] = reply.body
        return body

    def start_group(self, group_id: str) -> dict[str, Any]:
        reply = self.call("POST", "/v1/groups/<group_id>/start", {"group_id": group_id})
        body: dict[str, Any] = reply.body
        return body

    # ------------------------------------------------------------------ tournaments

    def state(self, tournament_id: str, etag: str | None = None) -> Reply:
        headers = {"If-None-Match": etag} if etag else None
        return self.call("GET", STATE, {"tournament_id": tournament_id}, headers=headers)

    def guess(self, tournament_id: str, row: int, word: str) -> Reply:
        params = {"tournament_id": tournament_id}
        return self.call("POST", GUESSES, params, body={"row": row, "word": word})

    def leave(self, tournament_id: str) -> Reply:
        params = {"tournament_id": tournament_id}
        return self.call("POST", "/v1/tournaments/<tournament_id>/leave", params)


class Observer(Protocol):
    """Hears what a bot does and sees, to measure staleness (the load test's probe)."""

    def guessed(self, tournament_id: str, duel_id: str, row: int, server_time: int) -> None: ...

    def seen(
        self, tournament_id: str, duel_id: str, viewer: str, rows: list[dict[str, Any]]
    ) -> None: ...

    def round_seen(self, tournament_id: str, viewer: str, number: int, intro_at: int) -> None:
        """A state of round `number` (whose intro began at `intro_at`) in which `viewer` plays
        (a duel or a bye) reached the bot."""

    def polling(
        self, tournament_id: str, viewer: str, view: dict[str, Any] | None, now: int
    ) -> None:
        """`viewer` polls the state at about server time `now`, having last seen `view`."""


@dataclass
class PlayOptions:
    think_scale: float = 1.0  # multiplies the skill's thinking time (tests think faster)
    poll_cap_s: float | None = None  # poll at least this often, whatever the advice (tiny turns)
    watch: bool = False  # once out, keep polling until the tournament ends (R9)
    observer: Observer | None = None


def _advice(reply: Reply) -> float:
    try:
        return max(0.0, float(reply.headers.get("poll-interval", "1")))
    except ValueError:
        return 1.0


def to_play(duel: dict[str, Any] | None, player_id: str | None) -> bool:
    """Whether the next turn of this live duel is the player's: now, or when the intro ends
    (`your_turn` is only true once it has begun; docs/client.md: keep time between polls)."""
    return duel is not None and duel["result"] is None and duel["to_play"] == player_id


def board_rows(duel: dict[str, Any]) -> list[Row]:
    return [(tuple(r["tiles"]), r["marks"]) for r in duel["rows"] if not r.get("skipped")]


class _Player:
    """The game loop's memory across polls."""

    def __init__(
        self,
        client: BotClient,
        tournament_id: str,
        skill: Skill,
        rng: random.Random,
        options: PlayOptions,
    ) -> None:
        self.client, self.tid, self.skill, self.rng, self.options = (
            client,
            tournament_id,
            skill,
            rng,
            options,
        )
        self.brains: dict[str, DuelBrain] = {}
        self.planned: tuple[str, int] | None = None
        self.act_at: float | None = None  # time.monotonic() at which to play; None: let it time out

    def plan(self, view: dict[str, Any], duel: dict[str, Any]) -> None:
        """On a new turn of ours: decide how long to think (or to let it time out). A turn
        that begins when the intro ends (R2) begins by the clock, without a poll."""
        key = (duel["id"], len(duel["rows"]))
        if key == self.planned:
            return
        self.planned = key
        turn_s = view["timers"]["turn_ms"] / 1000
        think = think_seconds(self.skill, turn_s, self.rng)
        if think is None:
            self.act_at = None
            return
        now = view["server_time"]
        begins = max(now, duel["starts_at"])
        left_s = ((duel["deadline"] or begins) - begins) / 1000
        margin = max(DEADLINE_MARGIN_S, DEADLINE_MARGIN_TURNS * turn_s)
        think = min(think * self.options.think_scale, max(0.0, left_s - margin))
        self.act_at = time.monotonic() + (begins - now) / 1000 + think

    def play(self, view: dict[str, Any], duel: dict[str, Any]) -> Reply | None:
        """Play one word on the next row; None when the turn is gone (poll again)."""
        brain = self.brains.get(duel["id"])
        if brain is None:
            words = lexicon(view["language"], duel["word_length"])
            brain = self.brains[duel["id"]] = DuelBrain(words, self.skill, self.rng)
        brain.observe(board_rows(duel))
        row = len(duel["rows"])
        for _ in range(3):
            word = brain.choose()
            try:
                reply = self.client.guess(self.tid, row, wordlists.display(view["language"], word))
            except ApiError as exc:
                if exc.status == 422:  # not in the server's list after all (R13): another word
                    brain.reject(word)
                    continue
                if exc.status == 409:  # the turn timed out meanwhile, or the duel ended
                    return None
                raise
            if self.options.observer is not None:
                self.options.observer.guessed(self.tid, duel["id"], row, reply.body["server_time"])
            return reply
        return None


def play_tournament(
    client: BotClient,
    tournament_id: str,
    skill: Skill,
    rng: random.Random,
    options: PlayOptions | None = None,
) -> dict[str, Any] | None:
    """Play until the tournament ends, or until this bot is out (unless watching).

    Returns the last state seen. Ends early when `client.stop` is set.
    """
    options = options or PlayOptions()
    me = _Player(client, tournament_id, skill, rng, options)
    view: dict[str, Any] | None = None
    etag: str | None = None
    pending: Reply | None = None  # a state that came back from a guess: no need to poll
    received = 0.0  # time.monotonic() when `view` arrived
    while not client.stop.is_set():
        if pending is None and options.observer is not None:
            now = 0 if view is None else view["server_time"]
            now += int((time.monotonic() - received) * 1000)
            options.observer.polling(tournament_id, client.player_id or "", view, now)
        reply = pending or client.state(tournament_id, etag)
        pending = None
        if reply.status == 200:
            view, etag = reply.body, reply.headers.get("etag")
            received = time.monotonic()
        wait_s = _advice(reply)
        if view is None:
            client.stop.wait(wait_s)
            continue
        duel = view["duel"]
        if options.observer is not None and reply.status == 200:
            pid = client.player_id or ""
            if duel is not None:
                options.observer.seen(tournament_id, duel["id"], pid, duel["rows"])
            if duel is not None or view["bye"] == pid:
                options.observer.round_seen(tournament_id, pid, view["round"], view["intro_at"])
        status = next(p["status"] for p in view["players"] if p["id"] == client.player_id)
        if view["phase"] == "finished" or (status in ("out", "left") and not options.watch):
            return view
        if options.poll_cap_s is not None:
            wait_s = min(wait_s, options.poll_cap_s)
        if to_play(duel, client.player_id):
            assert duel is not None
            me.plan(view, duel)
            think_s = None if me.act_at is None else me.act_at - time.monotonic()
            if think_s is not None and think_s <= wait_s:
                # Play when done thinking, without polling first: the answer is the new state
                # (or, if the turn is gone, a 409, and the next poll shows why).
                if client.stop.wait(max(0.0, think_s)):
                    break
                pending = me.play(view, duel)
                me.act_at = None
                continue
        client.stop.wait(max(0.0, wait_s))
    return view
