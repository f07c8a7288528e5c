"""Simulated players: ordinary API clients on the simulated clock, with the bots' cadence from
the load test (api/bots): they follow `Poll-Interval` to the millisecond with `If-None-Match`,
think on their turn as the bots of their rating do (core/bots.py), play the words their
brain picks, poll the queue once a second while they wait and follow the `Where` header.

Each request is labelled and metered in the phase of the cycle it belongs to (api/scale/world.py):
`queue` (join, wait, the start), `play` (the tournament, until out or finished, and watching),
`after` (results and history), `group` (a group's start and its members' wait for it).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import wordlists
from api.bots.brain import DuelBrain
from api.bots.client import board_rows, lexicon
from api.scale.world import World
from core.bots import Skill, skill_for_rating, think_seconds

QUEUE_POLL_MS = 1_000  # the lobby screen polls `GET /v1/queue` about once a second
RTT_MS = 40  # a request's round trip: the answer reaches the client this much later
HISTORY_SHARE = 0.2  # of results screens: the player also opens their list of tournaments


@dataclass
class Player:
    world: World
    id: str
    token: str
    rating: int
    rng: random.Random
    address: str
    language: str = "en"
    kind: str = "q"  # "q": came through the queue; "g": plays in a friend group
    group: str | None = None
    watch: bool = False  # once out, watch until the end (R9); group members always do
    skill: Skill = field(init=False)
    tournament: str | None = None
    view: dict[str, Any] | None = None
    etag: str | None = None
    planned: tuple[str, int] | None = None
    act_at: int | None = None
    brains: dict[str, DuelBrain] = field(default_factory=dict)
    on_free: Callable[[Player], None] | None = None  # out or finished, results seen
    on_seated: Callable[[Player], None] | None = None  # a tournament started for it
    played: int = 0
    active_ms: int = 0  # from each tournament's start to leaving it (results included)
    stopped: bool = False  # the run is over for this player: no more requests
    last_round: bool = False  # a group member stops once it has seen this one's results
    _started_at: int | None = None
    _generation: int = 0  # a new tournament (or queue) cancels the events of the last

    def __post_init__(self) -> None:
        self.skill = skill_for_rating(self.rating)

    def phase(self, name: str) -> str:
        """The phase a request is metered in: the queue's is one, the others per kind."""
        return name if name == "queue" else f"{name}:{self.kind}"

    def _get(self, phase: str, label: str, path: str, headers: dict[str, str] | None = None) -> Any:
        w, token, address = self.world, self.token, self.address
        return w.request(
            self.phase(phase), label, "GET", path, token=token, headers=headers, address=address
        )

    def _post(self, phase: str, label: str, path: str, body: Any = None) -> Any:
        w, token, address = self.world, self.token, self.address
        return w.request(
            self.phase(phase), label, "POST", path, token=token, body=body, address=address
        )

    def _later(self, ms: int, action: Callable[[], None]) -> None:
        self._at(self.world.now + max(0, ms), action)

    def _at(self, when: int, action: Callable[[], None]) -> None:
        generation = self._generation

        def guarded() -> None:
            if generation == self._generation and not self.stopped:
                action()

        self.world.at(when, guarded)

    # ------------------------------------------------------------------ the queue

    def join_queue(self) -> None:
        r = self._post("queue", "POST /v1/queue", "/v1/queue", {"language": self.language})
        lobby = r.get_json() if r.status_code == 201 else None
        if lobby is not None and lobby.get("tournament_id"):
            self._seated(lobby["tournament_id"])
        else:
            self._later(RTT_MS + QUEUE_POLL_MS, self._poll_queue)

    def _poll_queue(self) -> None:
        r = self._get("queue", "GET /v1/queue", "/v1/queue")
        place = json.loads(r.headers.get("Where", "{}"))
        body = r.get_json(silent=True) or {}
        lobby = body.get("lobby") or {}
        started = place.get("tournament_id") or lobby.get("tournament_id")
        if started:
            self._seated(started)
        elif not body.get("queued") and place.get("lobby_id") is None:
            # Started by another's request since authentication read us: ask where we are.
            me = self._get("queue", "GET /v1/me", "/v1/me").get_json()
            if me.get("tournament_id"):
                self._seated(me["tournament_id"])
            else:
                self._later(RTT_MS, self.join_queue)
        else:
            self._later(RTT_MS + QUEUE_POLL_MS, self._poll_queue)

    def _seated(self, tournament_id: str) -> None:
        if self.on_seated is not None:
            self.on_seated(self)
        self.play(tournament_id)

    # ------------------------------------------------------------------ a tournament

    def play(self, tournament_id: str) -> None:
        self._generation += 1
        self.tournament = tournament_id
        self.view, self.etag, self.planned, self.act_at = None, None, None, None
        self.brains = {}
        self._started_at = self.world.now
        self._later(RTT_MS, self._poll)

    def _url(self) -> str:
        return f"/v1/tournaments/{self.tournament}"

    def _take(self, r: Any) -> int:
        if r.status_code == 200:
            self.view = r.get_json()
            self.etag = r.headers.get("ETag")
        try:
            return round(float(r.headers.get("Poll-Interval", "1")) * 1000)
        except ValueError:
            return 1000

    def _poll(self) -> None:
        headers = {"If-None-Match": self.etag} if self.etag else None
        phase = "play" if self.view is None or self.view["phase"] != "finished" else "group"
        r = self._get(phase, "GET state", f"{self._url()}/state", headers)
        if r.status_code >= 400:
            self._later(RTT_MS + 1_000, self._poll)
            return
        wait = self._take(r)
        view = self.view
        if view is None:
            self._later(RTT_MS + wait, self._poll)
            return
        place = json.loads(r.headers.get("Where", "{}"))
        moved = place.get("tournament_id")
        if moved and moved != self.tournament:  # a group's leader seated us anew (R22)
            self.play(moved)
            return
        me = next(p for p in view["players"] if p["id"] == self.id)
        finished = view["phase"] == "finished"
        out = me["lives"] == 0 or me.get("status") in ("out", "left")
        if finished or (out and not (self.watch or self.group)):
            if self._started_at is not None:
                self._leave_tournament()
            if self.group is None or self.last_round:
                self.stopped = self.stopped or self.last_round
                return
        duel = view["duel"]
        if not finished and not out and duel is not None and duel["your_turn"]:
            self._plan(view, duel)
            if self.act_at is not None and self.act_at <= self.world.now + RTT_MS + wait:
                self._at(self.act_at, self._act)
                return
        self._later(RTT_MS + wait, self._poll)

    def _plan(self, view: dict[str, Any], duel: dict[str, Any]) -> None:
        """On a new turn of its own: decide when to play (or to let it time out, R11)."""
        key = (duel["id"], len(duel["rows"]))
        if key == self.planned:
            return
        self.planned = key
        turn_s = view["timers"]["turn_ms"] / 1000
        think = think_seconds(self.skill, turn_s, self.rng)
        left = (duel["deadline"] - view["server_time"]) / 1000
        margin = max(0.15, 0.1 * turn_s)
        at = self.world.now + RTT_MS
        self.act_at = (
            None if think is None else at + int(1000 * max(0.0, min(think, left - margin)))
        )

    def _act(self) -> None:
        view = self.view
        assert view is not None
        duel = view["duel"]
        self.act_at = None
        if duel is None or not duel["your_turn"]:
            self._later(0, self._poll)
            return
        brain = self.brains.get(duel["id"])
        if brain is None:
            words = lexicon(view["language"], duel["word_length"])
            brain = self.brains[duel["id"]] = DuelBrain(words, self.skill, self.rng)
        brain.observe(board_rows(duel))
        wait = 0
        for _ in range(3):
            word = brain.choose()
            body = {"row": len(duel["rows"]), "word": wordlists.display(view["language"], word)}
            r = self._post("play", "POST guess", f"{self._url()}/guesses", body)
            if r.status_code == 422:
                brain.reject(word)
                continue
            if r.status_code == 200:
                wait = self._take(r)
            break
        self._later(RTT_MS + wait, self._poll)

    # ------------------------------------------------------------------ after it

    def _leave_tournament(self) -> None:
        """Results: the history once, and where the player is now."""
        self._get("after", "GET history", f"{self._url()}/history")
        self._get("after", "GET /v1/me", "/v1/me")
        # The results screen: the player's statistics and rank on their language's board;
        # now and then their own list of tournaments.
        self._get("after", "GET /v1/me/stats", "/v1/me/stats")
        self._get("after", "GET leaderboard", f"/v1/leaderboard?language={self.language}")
        if self.rng.random() < HISTORY_SHARE:
            self._get("after", "GET /v1/me/history", "/v1/me/history")
        self.played += 1
        if self._started_at is not None:
            self.active_ms += self.world.now - self._started_at
        self._started_at = None
        if self.on_free is not None:
            self.on_free(self)
