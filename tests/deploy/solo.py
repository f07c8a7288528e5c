"""One person who queues alone and plays a whole tournament against house bots (D18), over any
transport and any clock: the Flask test client with a driven clock (tests/api), zappa's Lambda
handler fed API Gateway events (tests/deploy/lambda_driver.py, from the unpacked package), or
real HTTP with real threads (tests/races). The sweep runs only when the caller's `sweep` says.

The person behaves as the browser client does: polls the queue every second, then the state as
the `Poll-Interval` header advises; keeps time through an intro (a turn that begins when the
intro ends begins by the clock, docs/client.md); thinks a while on each turn and plays the word
its `DuelBrain` picks. It writes down, for each of its turns, when the turn began (the stored
board says: its start, or the opponent's move before it), when it first knew, and how long the
turn was: `late_turns()` are those it learnt of late or got short. Once out it stops polling.

Only the standard library and the service's own packages (api, core), which the Lambda package
holds too, so the Lambda driver imports this file beside it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import wordlists
from api import words
from api.bots.brain import DuelBrain
from core.bots import HARD

# A transport: (method, path, body, token) → (status, headers with lower-case names, JSON).
Call = Callable[[str, str, Any, "str | None"], tuple[int, dict[str, str], Any]]
QUEUE_POLL_MS = 1_000  # the browser's lobby screen polls every second
LATE_MS = 1_000  # a turn the person learns of later than this after it began is late


@dataclass
class Turn:
    duel: str
    row: int
    began: int  # server time the turn began (the duel's start, or the row before it)
    known: int  # server time the person first knew it was theirs
    length_ms: int  # from its start to its deadline
    played: int | None = None  # when the person's guess was answered


@dataclass
class Solo:
    call: Call
    now: Callable[[], int]  # the server's clock, in ms (driven, or the wall clock)
    wait_until: Callable[[int], None]  # let time pass until then (driven, or sleep)
    language: str = "kk"
    sweep: Callable[[], Any] | None = None  # the scheduled event
    sweep_every_ms: int = 60_000
    think_share: float = 0.3  # of the turn, before the person plays
    rng: random.Random = field(default_factory=lambda: random.Random(3))
    # What happened:
    player_id: str = ""
    token: str = ""
    queued_at: int = 0
    bots_at: int | None = None  # as the first poll of the queue said
    tournament_id: str | None = None
    seen_started: int | None = None  # when the person first knew it had started
    first_state: dict[str, Any] | None = None
    last_state: dict[str, Any] | None = None
    turns: list[Turn] = field(default_factory=list)
    refused: list[tuple[int, Any]] = field(default_factory=list)  # unexpected error answers
    moved_on: list[Any] = field(default_factory=list)  # 409s: the turn was not as it believed
    out_at: int | None = None  # when it saw itself out (or the end), and stopped polling
    sweeps: int = 0
    requests: int = 0
    # (time, method, path, status) of each request, the sweeps too
    log: list[tuple[int, str, str, int]] = field(default_factory=list)
    _next_sweep: int = 0
    _brains: dict[str, DuelBrain] = field(default_factory=dict)

    # ------------------------------------------------------------------ plumbing

    def _request(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
        self.requests += 1
        status, headers, data = self.call(method, path, body, self.token or None)
        self.log.append((self.now(), method, path.rsplit("/", 1)[-1], status))
        if status == 409:
            self.moved_on.append(data)
        elif status >= 400:
            self.refused.append((status, data))
        return status, headers, data

    def _until(self, at: int) -> None:
        """Let time pass until `at`, running the sweep whenever its schedule comes first."""
        while self.sweep is not None and self._next_sweep <= at:
            self.wait_until(self._next_sweep)
            self.log.append((self.now(), "SWEEP", "", 0))
            self.sweep()
            self.sweeps += 1
            self._next_sweep += self.sweep_every_ms
        self.wait_until(at)

    # ------------------------------------------------------------------ the story

    def queue(self) -> None:
        """Create the player, queue, and poll the queue until the tournament started."""
        self._next_sweep = self.now() + self.sweep_every_ms
        status, _, me = self._request("POST", "/v1/players", {})
        assert status == 201, me
        self.player_id, self.token = me["id"], me["token"]
        status, _, lobby = self._request("POST", "/v1/queue", {"language": self.language})
        assert status == 201, lobby
        self.queued_at = self.now()
        while True:
            self._until(self.now() + QUEUE_POLL_MS)
            status, _, queue = self._request("GET", "/v1/queue")
            assert status == 200, queue
            if queue["queued"]:
                if self.bots_at is None:
                    self.bots_at = queue["bots_at"]
                continue
            status, _, me = self._request("GET", "/v1/me")
            assert status == 200 and me["tournament_id"], me
            self.tournament_id = me["tournament_id"]
            self.seen_started = self.now()
            return

    def play(self) -> dict[str, Any]:
        """Poll and play as advised until out (or the end); the last state seen."""
        assert self.tournament_id is not None
        path = f"/v1/tournaments/{self.tournament_id}"
        while True:
            status, headers, state = self._request("GET", f"{path}/state")
            assert status == 200, state
            self.first_state = self.first_state or state
            self.last_state = state
            me = next(p for p in state["players"] if p["id"] == self.player_id)
            if state["phase"] == "finished" or me["status"] != "playing":
                self.out_at = state["server_time"]
                return state
            advice = round(1000 * float(headers["poll-interval"]))
            duel = state["duel"]
            if duel is not None and duel["result"] is None and duel["to_play"] == self.player_id:
                self._turn(state, duel, advice)
            else:
                self._until(self.now() + advice)

    def _turn(self, state: dict[str, Any], duel: dict[str, Any], advice: int) -> None:
        """Our turn, now or when the intro ends: think, then play (a word the server refuses,
        R13, gets another)."""
        now = state["server_time"]
        turn_ms = state["timers"]["turn_ms"]
        began = duel["deadline"] - turn_ms if duel["deadline"] else duel["starts_at"]
        row = len(duel["rows"])
        if not any(t.duel == duel["id"] and t.row == row for t in self.turns):
            known = max(now, duel["starts_at"])
            self.turns.append(Turn(duel["id"], row, began, known, duel["deadline"] - began))
        turn = self.turns[-1]
        play_at = turn.known + round(self.think_share * turn_ms)
        if play_at > now + advice:  # while thinking it polls as advised, as the browser does
            self._until(now + advice)
            return
        self._until(play_at)
        brain = self._brains.get(duel["id"])
        if brain is None:
            lexicon = words.lexicon(state["language"], duel["word_length"])
            brain = self._brains[duel["id"]] = DuelBrain(lexicon, HARD, self.rng)
        brain.observe([(tuple(r["tiles"]), r["marks"]) for r in duel["rows"] if "tiles" in r])
        for _ in range(5):
            word = brain.choose()
            body = {
                "row": row,
                "word": wordlists.display(state["language"], word),
                "duel": duel["id"],
            }
            status, _, answer = self._request(
                "POST", f"/v1/tournaments/{self.tournament_id}/guesses", body
            )
            if status == 422:
                brain.reject(word)
                self.refused.pop()
                continue
            if status == 200:
                turn.played = answer["server_time"]
            else:  # the turn was not as the last state said: look again when advised
                self._until(self.now() + advice)
            return

    def watch_sweeps_until(self, done: Callable[[], bool], limit_ms: int) -> None:
        """Out, and polling nothing: only the sweep runs, until `done()` or `limit_ms`."""
        end = self.now() + limit_ms
        while not done() and self.now() < end:
            self._until(self._next_sweep)

    # ------------------------------------------------------------------ what it saw

    def bots(self) -> list[dict[str, Any]]:
        assert self.first_state is not None
        return [p for p in self.first_state["players"] if p["bot"]]

    def late_turns(self, turn_ms: int, late_ms: int = LATE_MS) -> list[Turn]:
        """Turns the person learnt of more than `late_ms` after they began, or that were
        shorter than a whole turn (R10)."""
        return [t for t in self.turns if t.known - t.began > late_ms or t.length_ms < turn_ms]
