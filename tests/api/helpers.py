"""Drivers for the API tests: a fake clock, counting/failing repositories, and `Game`, which plays
whole tournaments over HTTP through the Flask test client.

The only test-only backdoor is reading the repository (never writing it): to know a duel's secret
so a player can win on purpose, and to check stored facts the API does not show (out rounds,
leave times, contact stamps).
"""

from __future__ import annotations

import itertools
import json
import random
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import wordlists
from api.service.tournaments import with_contacts
from api.storage.records import TournamentRecord
from api.storage.repository import LOBBIES_PER_BAND, Repository, Unavailable
from core.duel import Duel
from core.timing import MAX_ROWS, TURNS_PER_PLAYER
from core.tournament_state import Tournament

JSON = dict[str, Any]
START_RATING = 1000
R17 = {1: 25, 2: 18, 3: 11, 4: 4, 5: -4, 6: -11, 7: -18, 8: -25}  # by place, equal ratings


class FakeClock:
    """Milliseconds that move only when a test moves them. Thread-safe."""

    def __init__(self, start: int) -> None:
        self._ms = start
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return self._ms

    @property
    def ms(self) -> int:
        return self()

    def advance(self, ms: int) -> int:
        with self._lock:
            self._ms += ms
            return self._ms

    def set(self, ms: int) -> None:
        with self._lock:
            if ms < self._ms:
                raise ValueError("time does not go back")
            self._ms = ms


# ---------------------------------------------------------------------------- repositories


class RepoProxy(Repository):
    """A repository that forwards every call to another one (subclass to observe or break it)."""

    def __init__(self, inner: Repository) -> None:
        self.inner = inner
        self.layout = inner.layout

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.inner, name)(*args, **kwargs)

    def get_player(self, player_id, *, consistent=True):  # type: ignore[no-untyped-def]
        return self._call("get_player", player_id, consistent=consistent)

    def get_players(self, player_ids):  # type: ignore[no-untyped-def]
        return self._call("get_players", player_ids)

    def get_lobby(self, lobby_id):  # type: ignore[no-untyped-def]
        return self._call("get_lobby", lobby_id)

    def get_tournament(self, tournament_id):  # type: ignore[no-untyped-def]
        return self._call("get_tournament", tournament_id)

    def get_group(self, group_id):  # type: ignore[no-untyped-def]
        return self._call("get_group", group_id)

    def open_lobbies(self, language, rating, window, limit=LOBBIES_PER_BAND, shards=None):  # type: ignore[no-untyped-def]
        return self._call("open_lobbies", language, rating, window, limit, shards)

    def due_tournaments(self, now, limit):  # type: ignore[no-untyped-def]
        return self._call("due_tournaments", now, limit)

    def due_lobbies(self, now, limit):  # type: ignore[no-untyped-def]
        return self._call("due_lobbies", now, limit)

    def touch(self, tournament_id, player_id, now):  # type: ignore[no-untyped-def]
        return self._call("touch", tournament_id, player_id, now)

    def touch_lobby(self, lobby_id, player_id, now):  # type: ignore[no-untyped-def]
        return self._call("touch_lobby", lobby_id, player_id, now)

    def get_clock(self, *, consistent=False):  # type: ignore[no-untyped-def]
        return self._call("get_clock", consistent=consistent)

    def put_clock(self, expected, new):  # type: ignore[no-untyped-def]
        return self._call("put_clock", expected, new)

    def touch_player(self, player_id, now):  # type: ignore[no-untyped-def]
        return self._call("touch_player", player_id, now)

    def reschedule(self, tournament_id, version, due):  # type: ignore[no-untyped-def]
        return self._call("reschedule", tournament_id, version, due)

    def reschedule_lobby(self, lobby_id, version, due):  # type: ignore[no-untyped-def]
        return self._call("reschedule_lobby", lobby_id, version, due)

    def commit(self, writes):  # type: ignore[no-untyped-def]
        return self._call("commit", writes)

    def count(self, key, window, window_ms, add):  # type: ignore[no-untyped-def]
        return self._call("count", key, window, window_ms, add)

    def get_stats(self, player_ids):  # type: ignore[no-untyped-def]
        return self._call("get_stats", player_ids)

    def history(self, player_id, limit, after=None):  # type: ignore[no-untyped-def]
        return self._call("history", player_id, limit, after)

    def active_players(self, since, part=None):  # type: ignore[no-untyped-def]
        return self._call("active_players", since, part)

    def get_parts(self):  # type: ignore[no-untyped-def]
        return self._call("get_parts")

    def save_part(self, part, boards):  # type: ignore[no-untyped-def]
        return self._call("save_part", part, boards)

    def get_board(self, name):  # type: ignore[no-untyped-def]
        return self._call("get_board", name)

    def save_board(self, board):  # type: ignore[no-untyped-def]
        return self._call("save_board", board)

    def claim_refresh(self, now, every_ms):  # type: ignore[no-untyped-def]
        return self._call("claim_refresh", now, every_ms)

    def ping(self) -> None:
        return self._call("ping")

    def describe(self) -> dict[str, str | None]:
        described: dict[str, str | None] = self._call("describe")
        return described


class CountingRepo(RepoProxy):
    """Records every call as (method name, args)."""

    def __init__(self, inner: Repository) -> None:
        super().__init__(inner)
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self._lock = threading.Lock()

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.calls.append((name, args))
        return super()._call(name, *args, **kwargs)

    def calls_to(self, name: str) -> int:
        return sum(1 for n, _ in self.calls if n == name)

    def reset(self) -> None:
        self.calls.clear()


class BrokenRepo(RepoProxy):
    """Raises Unavailable from every method while `down` is set."""

    def __init__(self, inner: Repository, retry_after: int = 7) -> None:
        super().__init__(inner)
        self.down = False
        self.retry_after = retry_after

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self.down:
            raise Unavailable("the store is down (test)", retry_after=self.retry_after)
        return super()._call(name, *args, **kwargs)


# ---------------------------------------------------------------------------- words


_FILLERS: dict[tuple[str, int], list[str]] = {}


def fillers(language: str, length: int) -> list[str]:
    """Valid guesses of `length` tiles that can never be a secret (accepted, not secret)."""
    key = (language, length)
    if key not in _FILLERS:
        secrets = set(wordlists.secret_words(language, length))
        words = ["".join(w) for w in wordlists.accepted_words(language, length) if w not in secrets]
        # Only words whose typed form normalises back to the same tiles.
        _FILLERS[key] = [w for w in words if len(wordlists.normalise(language, w)) == length]
    return _FILLERS[key]


# ---------------------------------------------------------------------------- players and games


@dataclass
class Player:
    id: str
    token: str
    nickname: str
    name: str = ""  # a label for messages

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


Strategy = Callable[["Game", Player, str, JSON], str | None]


def winning_sometimes(p: float, rng: random.Random) -> Strategy:
    """Guess the secret with probability p, else a valid word that is no secret."""

    def choose(game: Game, player: Player, tid: str, duel: JSON) -> str | None:
        if rng.random() < p:
            return game.secret_text(tid, duel["id"])
        return rng.choice(fillers(game.language_of(tid), duel["word_length"]))

    return choose


# Response headers that carry state (the fixed security headers say "DENY", a fine secret).
DATA_HEADERS = {"Where", "ETag", "Poll-Interval", "Location"}


@dataclass
class Call:
    method: str
    url: str
    player: str | None
    status: int
    body: bytes
    at: int
    headers: bytes = b""  # the headers that carry data (Where, ETag), one "Name: value" a line


@dataclass
class Game:
    client: Any  # flask.testing.FlaskClient
    clock: FakeClock
    repo: Repository
    rng: random.Random = field(default_factory=lambda: random.Random(7))
    calls: list[Call] = field(default_factory=list)
    after_call: list[Callable[[Call], None]] = field(default_factory=list)
    _addresses: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    # ------------------------------------------------------------------ raw HTTP

    def call(self, method: str, url: str, player: Player | None = None, **kwargs: Any) -> Any:
        headers = dict(kwargs.pop("headers", {}) or {})
        if player is not None:
            headers.update(player.headers)
        response = self.client.open(url, method=method, headers=headers, **kwargs)
        call = Call(
            method,
            url,
            player.id if player else None,
            response.status_code,
            response.get_data(),
            self.clock.ms,
            "\n".join(
                f"{k}: {v}" for k, v in response.headers.items() if k in DATA_HEADERS
            ).encode(),
        )
        self.calls.append(call)
        assert response.status_code != 500, (method, url, response.get_data(as_text=True))
        for hook in self.after_call:
            hook(call)
        return response

    def get(self, url: str, player: Player | None = None, **kw: Any) -> Any:
        return self.call("GET", url, player, **kw)

    def post(self, url: str, player: Player | None = None, **kw: Any) -> Any:
        return self.call("POST", url, player, **kw)

    def delete(self, url: str, player: Player | None = None, **kw: Any) -> Any:
        return self.call("DELETE", url, player, **kw)

    # ------------------------------------------------------------------ players and queue

    def new_player(self, name: str = "") -> Player:
        n = next(self._addresses)
        # A fresh client address each time: the creation limit is per address.
        address = f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
        r = self.post("/v1/players", environ_base={"REMOTE_ADDR": address})
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        assert body["rating"] == START_RATING and body["tournaments_played"] == 0
        return Player(body["id"], body["token"], body["nickname"], name or body["nickname"])

    def new_players(self, n: int) -> list[Player]:
        return [self.new_player(f"p{i}") for i in range(n)]

    def queue(self, players: Sequence[Player], language: str = "en") -> str:
        """Queue everyone; the last seat starts the tournament (D7). Returns its id."""
        tid = None
        for i, p in enumerate(players):
            r = self.post("/v1/queue", p, json={"language": language})
            assert r.status_code == 201, r.get_json()
            tid = r.get_json()["tournament_id"]
            if i < len(players) - 1:
                assert tid is None, "the tournament started before the lobby was full"
        assert tid is not None, "a full lobby must start its tournament"
        return tid

    def start_tournament(self, language: str = "en") -> tuple[str, list[Player]]:
        players = self.new_players(8)
        return self.queue(players, language), players

    def me(self, player: Player) -> JSON:
        r = self.get("/v1/me", player)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    # ------------------------------------------------------------------ tournaments

    def state(self, player: Player, tid: str) -> JSON:
        r = self.get(f"/v1/tournaments/{tid}/state", player)
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def guess(self, player: Player, tid: str, row: int, word: Any) -> Any:
        return self.post(f"/v1/tournaments/{tid}/guesses", player, json={"row": row, "word": word})

    def leave(self, player: Player, tid: str) -> Any:
        return self.post(f"/v1/tournaments/{tid}/leave", player)

    # ------------------------------------------------------------------ the backdoor (read only)

    def record(self, tid: str) -> TournamentRecord:
        record = self.repo.get_tournament(tid)
        assert record is not None
        return record

    def stored(self, tid: str) -> Tournament:
        """The stored tournament with its contact stamps (not advanced to now)."""
        return with_contacts(self.record(tid))

    def language_of(self, tid: str) -> str:
        return self.stored(tid).language

    def duel(self, tid: str, duel_id: str) -> Duel:
        for rnd in self.stored(tid).rounds:
            for duel in rnd.duels:
                if duel.id == duel_id:
                    return duel
        raise AssertionError(f"no duel {duel_id}")

    def secret_text(self, tid: str, duel_id: str) -> str:
        return "".join(self.duel(tid, duel_id).secret)

    # ------------------------------------------------------------------ driving

    def play_to_end(
        self,
        tid: str,
        players: Sequence[Player],
        strategy: Strategy | None = None,
        *,
        silent: Iterable[str] = (),
        until: Callable[[], bool] | None = None,
        stop_at: int | None = None,
        act_ms: int = 300,
        idle_ms: int = 1000,
        max_steps: int = 2000,
        watch: bool = False,
    ) -> JSON | None:
        """Every player still in the tournament polls; whoever is to play plays `strategy`.

        Players in `silent` never send anything. The clock moves `act_ms` after a step in which
        somebody played, else `idle_ms` (or straight to the end of an intro). With `watch`, every
        player also fetches every duel of the round (spectating, R9). Stops when the tournament
        is finished (returns the final state seen by the first player), or `until()` holds, or
        the clock reached `stop_at` (it never passes it): then None.
        """
        strategy = strategy or winning_sometimes(0.4, self.rng)
        silent = set(silent)
        by_id = {p.id: p for p in players}
        for _ in range(max_steps):
            if stop_at is not None and self.clock.ms >= stop_at:
                return None
            if until is not None and until():
                return None
            acted = False
            intro_end: int | None = None
            seen: JSON | None = None
            for p in players:
                if p.id in silent:
                    continue
                st = self.state(p, tid)
                seen = seen or st
                if st["phase"] == "finished":
                    return self.state(players[0], tid)
                if st["phase"] == "intro":
                    intro_end = st["phase_deadline"]
                if watch:
                    for d in st["duels"]:
                        r = self.get(f"/v1/tournaments/{tid}/duels/{d['id']}", p)
                        assert r.status_code == 200, r.get_json()
                mine = next(x for x in st["players"] if x["id"] == p.id)
                duel = st["duel"]
                if mine["lives"] == 0 or duel is None or not duel["your_turn"]:
                    continue
                word = strategy(self, by_id[p.id], tid, duel)
                if word is None:
                    continue
                r = self.guess(p, tid, len(duel["rows"]), word)
                assert r.status_code == 200, (p.name, word, r.get_json())
                acted = True
            now = self.clock.ms
            if seen is not None and acted:
                later = now + act_ms
            elif seen is not None and intro_end is not None and intro_end > now:
                later = intro_end
            else:  # waiting for time to pass (or everyone is silent)
                later = now + idle_ms
            self.clock.set(later if stop_at is None else min(later, stop_at))
        raise AssertionError(f"the tournament did not finish in {max_steps} steps")


# ---------------------------------------------------------------------------- checks


def round_half_away(x: Fraction) -> int:
    sign = -1 if x < 0 else 1
    return sign * int(abs(x) + Fraction(1, 2))


def equal_rating_change(place: int, places: Sequence[int]) -> int:
    """D5 with everyone at the same rating (E = ½ against each), exactly, from scratch."""
    total = Fraction(0)
    for other in places:
        total += Fraction(1) if other > place else Fraction(1, 2) if other == place else 0
    total -= Fraction(1, 2)  # the player itself counted as a draw above
    total -= Fraction(len(places) - 1, 2)
    return round_half_away(total * 50 / 7)


def finish_key(t: Tournament, player_id: str) -> tuple[int, int, int]:
    """How well a player finished: later elimination is better; the winner is best; leavers of
    a round rank below that round's other eliminations (R8, D8)."""
    p = t.player(player_id)
    last = t.rounds[-1].number
    out = last if p.out_round is None else p.out_round
    return (out, int(p.lives > 0), int(p.left_at is None))


def assert_final(game: Game, tid: str, players: Sequence[Player], final: JSON) -> None:
    """The end of a tournament as every rule about places and ratings says (R7, R8, R15–R17,
    D1, D5, D8, D14), with ratings applied exactly once to the player records."""
    assert final["phase"] == "finished"
    t = game.stored(tid)
    assert t.finished_at is not None
    places = {p["id"]: p["place"] for p in final["players"]}
    changes = {p["id"]: p["rating_change"] for p in final["players"]}
    assert set(places) == {p.id for p in players}
    assert all(isinstance(v, int) for v in places.values()), places
    # R7: exactly one winner (or R8: a last round that eliminated everyone left).
    winners = [pid for pid, place in places.items() if place == 1]
    assert len(winners) >= 1
    # D1 from the stored facts: place = 1 + number of players who finished strictly better.
    keys = {p.id: finish_key(t, p.id) for p in players}
    for pid, place in places.items():
        better = sum(1 for q in keys if keys[q] > keys[pid])
        assert place == 1 + better, (pid, place, keys)
    # D5, computed independently (everyone started at 1000); R17's table for lone places.
    for pid, place in places.items():
        assert changes[pid] == equal_rating_change(place, list(places.values())), (pid, place)
        if list(places.values()).count(place) == 1:
            assert changes[pid] == R17[place], (pid, place)
    # Applied exactly once, and everyone is free again (D14) — even after more polls.
    for _ in range(2):
        for p in players:
            me = game.me(p)
            assert me["rating"] == START_RATING + changes[p.id], (p.name, me, changes[p.id])
            assert me["tournaments_played"] == 1
            assert me["tournament_id"] is None and me["lobby_id"] is None
            assert me["last_tournament_id"] == tid
        game.state(players[0], tid)
    assert_invariants(t)


def assert_free_to_queue(game: Game, players: Sequence[Player], language: str = "en") -> None:
    """D14: players who are out may queue again at once (then leave again, R19)."""
    for p in players:
        r = game.post("/v1/queue", p, json={"language": language})
        assert r.status_code == 201, (p.name, r.get_json())
        r = game.delete("/v1/queue", p)
        assert r.status_code == 204, r.get_data(as_text=True)


def assert_invariants(t: Tournament) -> None:
    """Core invariants of a stored tournament (R1, R5, R10, R11, R14)."""
    for p in t.players:
        assert 0 <= p.lives <= 3, p
    for rnd in t.rounds:
        for d in rnd.duels:
            assert len(d.turns) <= MAX_ROWS, d.id
            for i, turn in enumerate(d.turns):
                assert turn.player == d.players[i % 2], f"{d.id}: turns must alternate"
            for who in d.players:
                assert d.turns_used(who) <= TURNS_PER_PLAYER
            times = [turn.at for turn in d.turns]
            assert times == sorted(times), d.id
            if d.ended_at is not None and d.winner is not None and not d.forfeit:
                last = [turn for turn in d.turns if turn.word is not None][-1]
                assert last.word == d.secret and last.player == d.winner, d.id


# ---------------------------------------------------------------------------- secrets


def _strings_and_lists(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _strings_and_lists(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings_and_lists(value)


def leaks(body: bytes, secret: Sequence[str]) -> list[str]:
    """Where `secret` shows in a response body: as text, or as its list of tiles."""
    found: list[str] = []
    joined = "".join(secret)
    text = body.decode("utf-8", "replace")
    # As a word on its own (ids are hex and nicknames CamelCase, so no accidental matches).
    if re.search(rf"(?<![0-9A-Za-z]){re.escape(joined)}(?![0-9A-Za-z])", text, re.IGNORECASE):
        found.append(f"text {joined!r}")
    for spacing in ((",", ":"), (", ", ": ")):
        if json.dumps(list(secret), separators=spacing, ensure_ascii=False) in text:
            found.append("tiles JSON")
        if json.dumps(list(secret), separators=spacing) in text:
            found.append("tiles JSON (escaped)")
    try:
        data = json.loads(text) if text else None
    except ValueError:
        data = None
    for node in _strings_and_lists(data):
        if isinstance(node, list) and node == list(secret):
            found.append("tile list")
        if isinstance(node, str) and node.lower() == joined.lower():
            found.append("string")
    return found
