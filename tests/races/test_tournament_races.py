"""Races inside live tournaments, through HTTP against DynamoDB Local.

Three tournaments at a time are played by bursts (a new one replaces one that finishes, until
the suite has run its thousand operations): at one instant every duel's player to move guesses,
often several times at once with the same row and word (retries), sometimes with another word for
the same row, sometimes out of turn; everyone polls (with and without an ETag), watchers watch
duels, the sweep runs twice, and now and then a player leaves while the guesses fly. Between
bursts the clock moves, sometimes past a turn's end, so that the next burst's polls, guesses and
sweeps race to apply the timeout.

Every acknowledged guess and leave is recorded with the version its answer carries (the ETag).
At the end, replaying the acknowledged commands one at a time, in version order, through `core`
must give exactly the stored tournament (R10, R11, R20, D10), every acknowledged guess must be on
its board (0 lost), and the ratings of the finished tournaments must be applied once (R16).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import wordlists
from api.bots.http import Http
from api.service.context import words_for
from api.service.tournaments import with_contacts
from core import tournament as tm
from core.evolve import evolve
from core.tournament_state import Tournament
from tests.api.checks import assert_invariants
from tests.api.words import fillers
from tests.races.conftest import TIMING, RaceStack
from tests.races.helpers import Racer, new_racers, start_tournament

TOURNAMENTS = 3
MIN_OPERATIONS = 1_000
MAX_BURSTS = 100
WORDS = words_for("en")


@dataclass(frozen=True, order=True)
class Command:
    """An acknowledged guess or leave, with the tournament version its answer carried."""

    version: int
    kind: str  # "guess" sorts before "leave": a no-op leave carries the version it read
    player: str
    now: int
    duel: str = ""
    row: int = -1
    word: str = ""


@dataclass
class Race:
    """One tournament under fire: its players and what the server acknowledged."""

    tid: str
    racers: list[Racer]
    initial: Tournament
    acked: list[Command] = field(default_factory=list)

    @property
    def params(self) -> dict[str, str]:
        return {"tid": self.tid}

    def auth(self, player_id: str) -> dict[str, str]:
        return dict(next(r for r in self.racers if r.id == player_id).auth)


def _version(etag: str) -> int:
    return int(etag.strip('"').split(".")[0])


def _guess(stack: RaceStack, race: Race, player: str, duel: str, row: int, word: str) -> Any:
    def run(http: Http) -> int:
        body = {"row": row, "word": word, "duel": duel}
        url = "/v1/tournaments/<tid>/guesses"
        reply = stack.call(http, "POST", url, body, params=race.params, headers=race.auth(player))
        if reply.status == 200:
            now = reply.body["server_time"]
            version = _version(reply.headers["etag"])
            race.acked.append(Command(version, "guess", player, now, duel, row, word))
        return reply.status

    return run


def _leave(stack: RaceStack, race: Race, player: str) -> Any:
    def run(http: Http) -> int:
        url = "/v1/tournaments/<tid>/leave"
        reply = stack.call(http, "POST", url, params=race.params, headers=race.auth(player))
        if reply.status == 200:
            now = reply.body["server_time"]
            race.acked.append(Command(_version(reply.headers["etag"]), "leave", player, now))
        return reply.status

    return run


def _poll(stack: RaceStack, race: Race, player: str, etag: bool) -> Any:
    def run(http: Http) -> int:
        url = "/v1/tournaments/<tid>/state"
        headers = race.auth(player)
        if etag:
            first = stack.call(http, "GET", url, params=race.params, headers=headers)
            headers["If-None-Match"] = first.headers["etag"]
        return stack.call(http, "GET", url, params=race.params, headers=headers).status

    return run


def _watch(stack: RaceStack, race: Race, player: str, duel: str) -> Any:
    def run(http: Http) -> int:
        url = "/v1/tournaments/<tid>/duels/<duel>"
        params = {**race.params, "duel": duel}
        return stack.call(http, "GET", url, params=params, headers=race.auth(player)).status

    return run


def _sweep(stack: RaceStack) -> Any:
    return lambda http: stack.service.sweep().advanced


def _plan(stack: RaceStack, race: Race) -> list[tuple[str, Callable[[Http], Any]]]:
    """This burst's operations on one tournament, from its state at the burst's instant."""
    rng, now = stack.rng, stack.clock.ms
    record = stack.repo.get_tournament(race.tid)
    assert record is not None
    t, _ = tm.advance(with_contacts(record), now, WORDS)
    ops: list[tuple[str, Callable[[Http], Any]]] = []
    if t.finished:
        return ops
    rnd = t.round
    for d in rnd.duels:
        if d.ended_at is not None or now < rnd.starts_at:
            continue
        row, mover = len(d.turns), d.to_play
        words = fillers("en", len(d.secret))
        word = "".join(d.secret) if rng.random() < 0.4 else rng.choice(words)
        for _ in range(rng.choice([1, 1, 2, 3])):  # the same guess, sent again at once
            ops.append(("guess", _guess(stack, race, mover, d.id, row, word)))
        if rng.random() < 0.25:  # another word for the same row: one of them wins
            ops.append(("guess", _guess(stack, race, mover, d.id, row, rng.choice(words))))
        if rng.random() < 0.2:  # out of turn
            other = d.opponent(mover)
            ops.append(("guess", _guess(stack, race, other, d.id, row, rng.choice(words))))
    for p in t.players:
        ops.append(("poll", _poll(stack, race, p.id, etag=rng.random() < 0.5)))
    for _ in range(2):
        watcher = rng.choice(t.players).id
        ops.append(("watch", _watch(stack, race, watcher, rng.choice(rnd.duels).id)))
    ops += [("sweep", _sweep(stack)), ("sweep", _sweep(stack))]
    alive = [p.id for p in t.players if p.lives > 0]
    if alive and rng.random() < 0.06:
        ops.append(("leave", _leave(stack, race, rng.choice(alive))))
    return ops


def _replay(race: Race, until: int) -> Tournament:
    """The acknowledged commands one at a time, in version order, from the initial state."""
    t = race.initial
    first: dict[tuple[str, ...], Command] = {}
    for command in sorted(race.acked):  # a retry's answer carries the version of a later read
        key = (command.kind, command.player, command.duel, str(command.row), command.word)
        if command.kind == "leave":
            key = (command.kind, command.player)
        first.setdefault(key, command)
    for c in sorted(first.values()):
        if c.kind == "guess":
            tiles = wordlists.normalise(t.language, c.word)
            t, _ = tm.guess(t, c.player, c.row, tiles, c.now, WORDS, c.duel)
        else:
            t, _ = tm.leave(t, c.player, c.now, WORDS)
    return tm.advance(t, until, WORDS)[0]


def _comparable(t: Tournament) -> str:
    """The state without last-contact stamps (written apart from the commands, D9)."""
    players = tuple(evolve(p, last_contact=0) for p in t.players)
    return json.dumps(repr(evolve(t, players=players)))


def _lost(race: Race, stored: Tournament) -> list[Command]:
    """Acknowledged guesses missing from their boards."""
    boards = {d.id: d for rnd in stored.rounds for d in rnd.duels}
    lost = []
    for c in race.acked:
        if c.kind != "guess":
            continue
        turns = boards[c.duel].turns
        tiles = wordlists.normalise(stored.language, c.word)
        on_board = c.row < len(turns) and turns[c.row].player == c.player
        if not (on_board and turns[c.row].word == tiles):
            lost.append(c)
    return lost


def _new_race(stack: RaceStack) -> Race:
    racers = new_racers(stack, 8)
    tid = start_tournament(stack, racers)
    record = stack.repo.get_tournament(tid)
    assert record is not None and record.version == 1
    return Race(tid, racers, record.tournament)


def test_r10_r20_d10_concurrent_play_loses_no_acknowledged_write(race_stack: RaceStack) -> None:
    stack = race_stack
    races = [_new_race(stack) for _ in range(TOURNAMENTS)]
    stack.clock.advance(TIMING.intro_ms)
    bursts = 0
    while bursts < MAX_BURSTS:
        planned = [(race, _plan(stack, race)) for race in races]
        live = sum(1 for _, ops in planned if ops)
        if live < TOURNAMENTS and stack.operations < MIN_OPERATIONS:
            races.append(_new_race(stack))  # one finished early: another takes its place
        ops = [op for _, race_ops in planned for op in race_ops]
        if not ops:
            break
        stack.burst(ops)
        bursts += 1
        step = stack.rng.choice([400, 1_000, 2_500, TIMING.turn_ms + 1])
        stack.clock.advance(step)

    end = stack.clock.ms
    acked = lost = 0
    for race in races:
        record = stack.repo.get_tournament(race.tid)
        assert record is not None
        stored = with_contacts(record)
        assert_invariants(stored)
        missing = _lost(race, stored)
        assert missing == [], missing
        acked += len(race.acked)
        lost += len(missing)
        replayed = _replay(race, end)
        assert _comparable(replayed) == _comparable(tm.advance(stored, end, WORDS)[0])
        if stored.finished:  # R16: each place's rating change reached the player once
            players = {p.id: p for p in stack.repo.get_players([r.id for r in race.racers])}
            for p in stored.players:
                assert p.rating_change is not None
                assert players[p.id].rating == p.rating + p.rating_change
                assert players[p.id].played == 1
    finished = sum(1 for r in races if stack.repo.get_tournament(r.tid).tournament.finished)  # type: ignore[union-attr]
    print(
        f"\nrace suite (tournaments): {stack.operations} concurrent operations in {bursts} "
        f"bursts, {acked} acknowledged guesses/leaves, {lost} lost, {finished} of "
        f"{len(races)} tournaments finished; statuses {dict(sorted(stack.statuses.items()))}"
    )
    assert stack.operations >= MIN_OPERATIONS
    assert acked > 100
