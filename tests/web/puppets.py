"""Puppets: players the browser tests drive over HTTP, as any API client would, so that a
tournament goes exactly where a test needs it (who wins which duel, who leaves, when) while the
browser shows it. A group of 8 (the browser's player and 7 puppets) fills its lobby by itself, so
no practice bot sits in.

The only backdoor is reading the repository (never writing it), to know a duel's secret so that a
puppet can win on purpose, as tests/api/helpers.py does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from api.bots.client import BotClient
from api.bots.http import ApiError, Http
from api.service.tournaments import with_contacts
from core import nicknames
from core.duel import Duel
from core.tournament_state import Tournament
from tests.api.helpers import fillers

JSON = dict[str, Any]
WAIT_S = 20.0
RACES = 3  # a guess sent as the turn ran out is read again and sent again, this many times


def wait_until(check: Callable[[], Any], what: str, timeout: float = WAIT_S) -> Any:
    """Poll `check` until it returns something truthy (game time is short in these tests)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.03)
    raise AssertionError(f"timed out waiting for {what}")


class Puppet:
    """One player over HTTP."""

    def __init__(
        self,
        url: str,
        token: str | None = None,
        nickname: str | None = None,
        bot_key: str | None = None,
    ) -> None:
        """A new player (a house bot with the server's `bot_key`), or the one of `token`."""
        self.client = BotClient(Http(url))
        if token is None:
            self.client.create_player(bot=bot_key is not None, bot_key=bot_key)
        else:
            self.client.token = token
            self.client.player_id = token.split(".", 1)[0]
        self.id: str = str(self.client.player_id)
        self.nickname: str | None = None
        if nickname is not None:
            self.rename(nickname)

    def call(self, method: str, path: str, body: Any = None) -> JSON:
        reply = self.client.call(method, path, body=body)
        return reply.body if isinstance(reply.body, dict) else {}

    def rename(self, nickname: str) -> str:
        """Take `nickname`, or (R25: a look-alike of someone on a leaderboard is refused, and a
        session's server keeps its leaderboards) the first of "Ana 2", "Ana 3"… it accepts. The
        name taken is `self.nickname`."""
        for k in range(1, 50):
            suffix = "" if k == 1 else f" {k}"
            wanted = nickname[: nicknames.MAX_LENGTH - len(suffix)] + suffix
            try:
                self.call("PATCH", "/v1/me", {"nickname": wanted})
            except ApiError as exc:
                if exc.code != "invalid_nickname":
                    raise
                continue
            self.nickname = wanted
            return wanted
        raise AssertionError(f"no free nickname like {nickname!r}")

    def me(self) -> JSON:
        return self.call("GET", "/v1/me")

    def state(self, tid: str) -> JSON:
        return self.call("GET", f"/v1/tournaments/{tid}/state")

    def leave(self, tid: str) -> JSON:
        return self.call("POST", f"/v1/tournaments/{tid}/leave")

    def play(self, tid: str, word: str, duel_id: str | None = None) -> JSON:
        """Wait for this player's turn in their duel, then play `word`; the answer's state.

        With `duel_id`, only that duel: if it ends first (a loaded machine lets its turns run
        out), nothing is played and the answer is empty, so that a word is never sent into the
        next round's duel, whose word may have another length."""

        def ready() -> JSON | bool:
            s = self.state(tid)
            duel = s["duel"]
            if duel_id is not None and (not duel or duel["id"] != duel_id or "secret" in duel):
                return {"gone": True}
            return bool(duel and duel["your_turn"]) and s

        for _ in range(RACES):
            state = wait_until(ready, f"{self.id}'s turn")
            if state.get("gone"):
                return {}
            duel = state["duel"]
            try:
                return self.call(
                    "POST",
                    f"/v1/tournaments/{tid}/guesses",
                    {"row": len(duel["rows"]), "word": word, "duel": duel["id"]},
                )
            except ApiError as exc:
                # The turn ran out between the read and the guess (a loaded machine): the board
                # moved on; read it again.
                if exc.code not in ("stale_row", "not_your_turn"):
                    raise
        raise AssertionError(f"{self.id} lost the race for its turn {RACES} times")


class Table:
    """A group of the browser's player and puppets, and the tournaments it plays."""

    def __init__(
        self, live: Any, leader: Puppet, names: Iterable[str] = (), language: str = "en"
    ) -> None:
        self.live = live
        self.leader = leader
        self.language = language
        self.group = leader.call("POST", "/v1/groups", {"language": language})
        self.puppets: list[Puppet] = [leader]
        for name in names:
            self.add(Puppet(live.url, nickname=name))

    @property
    def invite(self) -> str:
        return f"{self.live.url}/#/join/{self.group['invite_code']}"

    def add(self, puppet: Puppet) -> Puppet:
        puppet.call("POST", "/v1/groups/join", {"invite_code": self.group["invite_code"]})
        self.puppets.append(puppet)
        return puppet

    def start(self) -> str:
        lobby = self.leader.call("POST", f"/v1/groups/{self.group['id']}/start")
        tid = lobby.get("tournament_id") or wait_until(
            lambda: self.leader.me()["tournament_id"], "the tournament"
        )
        return str(tid)

    def puppet(self, player_id: str) -> Puppet | None:
        return next((p for p in self.puppets if p.id == player_id), None)

    # ---------------------------------------------------------------- the backdoor (read only)

    def stored(self, tid: str) -> Tournament:
        record = self.live.service.ctx.repo.get_tournament(tid)
        assert record is not None
        return with_contacts(record)

    def round(self, tid: str) -> Any:
        return self.stored(tid).rounds[-1]

    def duel_of(self, tid: str, player_id: str) -> Duel | None:
        return self.round(tid).duel_of(player_id)

    def duel_of_id(self, tid: str, duel_id: str) -> Duel:
        return next(d for r in self.stored(tid).rounds for d in r.duels if d.id == duel_id)

    def secret(self, tid: str, duel: Duel) -> str:
        return "".join(duel.secret)

    def filler(self, duel: Duel, n: int = 0) -> str:
        words = fillers(self.language, len(duel.secret))
        return words[(n * 7919) % len(words)]

    # ---------------------------------------------------------------- moves

    def win(self, tid: str, player_id: str) -> JSON:
        """`player_id` (a puppet) guesses its duel's secret on its next turn."""
        duel = self.duel_of(tid, player_id)
        puppet = self.puppet(player_id)
        assert duel is not None and puppet is not None
        return puppet.play(tid, self.secret(tid, duel))

    def miss(self, tid: str, player_id: str, n: int = 0) -> JSON:
        """`player_id` (a puppet) plays a valid word that is not the secret."""
        duel = self.duel_of(tid, player_id)
        puppet = self.puppet(player_id)
        assert duel is not None and puppet is not None
        return puppet.play(tid, self.filler(duel, n), duel_id=duel.id)

    def first_puppet_wins(self, tid: str, duel: Duel) -> str:
        """One of the duel's puppets wins it (the one to play first if both are puppets), unless
        it has already ended on its own."""
        for player in duel.players:
            puppet = self.puppet(player)
            if puppet is not None:
                puppet.play(tid, self.secret(tid, duel), duel_id=duel.id)
                return player
        raise AssertionError(f"no puppet in {duel.id}")

    def wait_round(self, tid: str, number: int) -> Any:
        return wait_until(lambda: (r := self.round(tid)).number >= number and r, f"round {number}")

    def wait_finished(self, tid: str) -> Tournament:
        return wait_until(lambda: (t := self.stored(tid)).finished_at is not None and t, "the end")
