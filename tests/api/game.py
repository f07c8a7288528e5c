"""`Game`, which plays whole tournaments over HTTP through the Flask test client, and its players.

The only test-only backdoor is reading the repository (never writing it): to know a duel's secret
so a player can win on purpose, and to check stored facts the API does not show (out rounds,
leave times, contact stamps).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from api.service.tournaments import with_contacts
from api.storage.records import TournamentRecord
from api.storage.repository import Repository
from core.duel import Duel
from core.tournament_state import Tournament
from tests.api.clock import FakeClock
from tests.api.words import fillers

JSON = dict[str, Any]
START_RATING = 1000


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
