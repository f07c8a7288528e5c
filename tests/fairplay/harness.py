"""Whole tournaments through HTTP on the real store, on a clock the harness moves (D19).

The stack: the app on a real threaded server over DynamoDB Local, with rate limits on and a
fake clock. Every client is an ordinary HTTP client with its own token, bound to a loopback
address of its own choosing (127.0.0.x: the rate limits count addresses), that sees only what
the API shows: the public board of its duel.

Minds choose the words (core.fairplay.players, the simulation's models):

- a *solver client* plays the solver's best word on the board it sees (core.solver over the
  public rows), a couple of seconds after the turn began;
- a *people-like client* chooses as an easy or medium house bot does (the stand-ins for
  people) and thinks as the simulator's people do (log-normal, median 15 s; a turn that
  reaches 30 s is skipped, R11).

Time moves only by the harness: it plans each turn's answer (the turn's start plus the mind's
thinking time), sets the clock to the earliest planned answer, sends it, and so on; a turn that
nobody answers is left to time out by moving the clock past its deadline. Nothing sleeps.
"""

from __future__ import annotations

import http.client
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import wordlists
from api.bots.http import Http, Reply
from api.words import lexicon
from core import bots
from core.duel import Word
from core.fairplay import players as models
from core.solver import board as sb
from tests.api.clock import FakeClock

STATE = "/v1/tournaments/<tid>/state"
GUESSES = "/v1/tournaments/<tid>/guesses"
LEAVE = "/v1/tournaments/<tid>/leave"
MAX_WAITS = 20  # 429s in a row before a client gives up


class BoundHttp(Http):
    """An Http client whose connections leave from one loopback address."""

    def __init__(self, base_url: str, source: str) -> None:
        super().__init__(base_url, timeout=60)
        self.source = source

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            self._conn = http.client.HTTPConnection(
                self._host, self._port, timeout=self._timeout, source_address=(self.source, 0)
            )
        return self._conn


@dataclass
class Client:
    """One player: a token, an address, a mind."""

    http: BoundHttp
    clock: FakeClock
    model: models.Model
    rng: random.Random
    id: str = ""
    token: str = ""
    waited: int = 0  # 429s honoured (the clock moved by their Retry-After)
    # per (tournament, duel): the words it believes possible (core.bots.vocabulary)
    believed: dict[tuple[str, str], int] = field(default_factory=dict)

    def call(self, method: str, route: str, body: Any = None, **params: str) -> Reply:
        """A request; a 429 is waited out on the clock (as its Retry-After says), then sent
        again. Any other answer is returned."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        for _ in range(MAX_WAITS):
            reply = self.http.request(method, route, params, body=body, headers=headers)
            assert reply.status < 500, (method, route, reply.status, reply.body)
            if reply.status != 429:
                return reply
            self.waited += 1
            self.clock.advance(1000 * int(reply.headers.get("retry-after", "1")))
        raise AssertionError(f"{method} {route}: still 429 after {MAX_WAITS} waits")

    def create(self) -> None:
        reply = self.call("POST", "/v1/players")
        assert reply.status == 201, reply.body
        self.id, self.token = reply.body["id"], reply.body["token"]

    # ------------------------------------------------------------------ the mind

    def think_ms(self) -> int | None:
        """How long this turn takes; None: the turn runs out (R11)."""
        seconds = models.think(self.model, self.rng)
        return None if seconds >= models.TURN_S else max(1, round(seconds * 1000))

    def word(self, view: dict[str, Any], duel: dict[str, Any]) -> Word:
        """The word this mind plays on the duel's public board."""
        lex = lexicon(view["language"], duel["word_length"])
        rows = [(tuple(tiles), marks) for tiles, marks in filter(None, duel["board"])]
        left = sb.candidates(lex, rows)
        key = (view["id"], duel["id"])
        if key not in self.believed:
            self.believed[key] = bots.vocabulary(lex, self.model.skill, self.rng)
        return models.choose(self.model, lex, rows, left, self.believed[key], self.rng)


def solver(http: BoundHttp, clock: FakeClock, seed: int) -> Client:
    return Client(http, clock, models.SOLVER, random.Random(seed))


def person(http: BoundHttp, clock: FakeClock, seed: int) -> Client:
    model = models.EASY if seed % 2 else models.MEDIUM
    return Client(http, clock, model, random.Random(seed))


@dataclass
class Played:
    tournament_id: str
    requests: int
    state: dict[str, Any]  # the final state


def play(tid: str, clients: Sequence[Client], clock: FakeClock) -> Played:
    """Play tournament `tid` to its end: every client answers its own turns as its mind says,
    at the time its mind takes (the clock moved to it)."""
    by_id = {c.id: c for c in clients}
    watcher = clients[0]
    planned: dict[tuple[str, int], int | None] = {}
    requests = 1
    view = watcher.call("GET", STATE, tid=tid).body
    while view["phase"] != "finished":
        turn_ms = view["timers"]["turn_ms"]
        moves: list[tuple[int, str, int]] = []  # (when, duel id, row)
        waits: list[int] = []
        for d in view["duels"]:
            if d["result"] is not None or d["to_play"] not in by_id:
                continue
            row = len(d["board"])
            key = (d["id"], row)
            if key not in planned:
                took = by_id[d["to_play"]].think_ms()
                planned[key] = None if took is None else d["deadline"] - turn_ms + took
            at = planned[key]
            if at is None:
                waits.append(d["deadline"] + 1)  # left to run out
            else:
                moves.append((at, d["id"], row))
        if not moves and not waits:  # every duel has ended: the next round starts by time
            waits.append(max(view["server_time"] + 1, view["starts_at"]))
        first_move = min(moves, default=None)
        if first_move is not None and first_move[0] <= min(waits, default=first_move[0]):
            at, duel_id, row = first_move
            clock.set(max(clock.ms, at))
            duel = next(d for d in view["duels"] if d["id"] == duel_id)
            mover = by_id[duel["to_play"]]
            text = wordlists.display(view["language"], mover.word(view, duel))
            reply = mover.call(
                "POST", GUESSES, {"row": row, "word": text, "duel": duel_id}, tid=tid
            )
            requests += 1
            planned[(duel_id, row)] = None if reply.status == 422 else planned[(duel_id, row)]
            assert reply.status in (200, 409, 422), reply.body
            if reply.status == 200:
                view = reply.body
                continue
        else:
            clock.set(max(clock.ms, min(waits)))
        view = watcher.call("GET", STATE, tid=tid).body
        requests += 1
    return Played(tid, requests, view)


def group_of(leader: Client, members: Sequence[Client]) -> str:
    """A group (R22) of the leader and `members`; its id."""
    group = leader.call("POST", "/v1/groups", {"language": "en"})
    assert group.status == 201, group.body
    for m in members:
        joined = m.call("POST", "/v1/groups/join", {"invite_code": group.body["invite_code"]})
        assert joined.status == 200, joined.body
    gid: str = group.body["id"]
    return gid


def start_group(leader: Client, group_id: str) -> str:
    started = leader.call("POST", "/v1/groups/<gid>/start", gid=group_id)
    assert started.status == 201, started.body
    tid: str = started.body["tournament_id"]
    return tid
