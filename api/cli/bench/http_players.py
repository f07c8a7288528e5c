"""`bench api`'s players over HTTP: a simulated clock, and new players each from an address of
its own, through the Flask test client (a poll-speed run and every metered tournament share the
addresses: creation is limited per address).
"""

from __future__ import annotations

import itertools

from flask.testing import FlaskClient

T0 = 1_760_000_000_000


class Clock:
    def __init__(self) -> None:
        self.ms = T0

    def __call__(self) -> int:
        return self.ms


_ADDRESSES = itertools.count()  # each new player from its own address (creation is limited)


def new_players(client: FlaskClient, n: int) -> list[dict[str, str]]:
    made = []
    for _ in range(n):
        k = next(_ADDRESSES)
        address = {"REMOTE_ADDR": f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}"}
        body = client.post("/v1/players", environ_base=address).get_json()
        made.append({"id": body["id"], "auth": f"Bearer {body['token']}"})
    return made
