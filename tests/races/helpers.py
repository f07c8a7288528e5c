"""Players and lobbies for the race suite, made through the API one request at a time."""

from __future__ import annotations

from dataclasses import dataclass

from api.bots.http import Http
from tests.races.conftest import RaceStack


@dataclass(frozen=True)
class Racer:
    id: str
    token: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def new_racers(stack: RaceStack, n: int) -> list[Racer]:
    http = stack.client()
    made = []
    for _ in range(n):
        body = stack.call(http, "POST", "/v1/players").body
        made.append(Racer(body["id"], body["token"]))
    http.close()
    return made


def join(stack: RaceStack, http: Http, racer: Racer, language: str = "en") -> dict[str, object]:
    reply = stack.call(http, "POST", "/v1/queue", {"language": language}, headers=racer.auth)
    assert reply.status == 201, reply.body
    body: dict[str, object] = reply.body
    return body


def start_tournament(stack: RaceStack, racers: list[Racer]) -> str:
    """Seat the 8 one after another; the 8th seat starts the tournament (D7)."""
    http = stack.client()
    lobby: dict[str, object] = {}
    for racer in racers:
        lobby = join(stack, http, racer)
    http.close()
    tid = lobby["tournament_id"]
    assert isinstance(tid, str)
    return tid
