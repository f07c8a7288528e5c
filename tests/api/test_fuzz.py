"""Odd bodies, values and ids on every route: never a 500, always a JSON error on failure."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask

from api.config import Settings
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, TIMING, game_for
from tests.api.game import Game, Player
from tests.api.test_openapi_and_logs import app_routes


@pytest.fixture
def settings() -> Settings:
    """Without rate limits, so that every request goes as deep as it can (they are tested in
    test_limits.py)."""
    return Settings(timing=TIMING, rate_limits=False)


HUGE = "w" * 15_000
ODD_STRINGS = [
    "",
    " ",
    "crane",
    "CRANE",
    "ünïcödé",
    "名前テスト",
    "🙂🙂🙂🙂🙂",
    "\u0000",
    "\ud800",  # a lone surrogate, legal in JSON text
    "a\u0301b\u0301c\u0301d\u0301e\u0301",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "Robert'); DROP TABLE players;--",
    "x" * 300,
    HUGE,
]
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    10**30,
    -(10**30),
    float("1e308"),
    [],
    {},
    [None],
    {"nested": {"deeper": [1, {"a": None}]}},
    *ODD_STRINGS,
]
RAW_BODIES = [
    b"",
    b"null",
    b"[]",
    b"{}",
    b'"just a string"',
    b"123",
    b"NaN",
    b"Infinity",
    b"1e99999",
    b"{'single': 'quotes'}",
    b'{"row": 0, "row": 1, "word": "crane"}',
    b"\xff\xfe\x00garbage",
    b"[" * 5_000 + b"]" * 5_000,
    b'{"a":' * 3_000 + b"1" + b"}" * 3_000,
]
FIELDS = ["row", "word", "language", "nickname", "invite_code"]


def bodies(rng: random.Random) -> list[tuple[str, Any]]:
    """(how, what) pairs: raw bytes, or a JSON object of odd field values."""
    out: list[tuple[str, Any]] = [("raw", b) for b in RAW_BODIES]
    for field in FIELDS:
        for value in ODD_VALUES:
            out.append(("json", {field: value}))
    for _ in range(40):
        out.append(("json", {f: rng.choice(ODD_VALUES) for f in rng.sample(FIELDS, 2)}))
    out.append(("json", {"row": 0, "word": "crane", "extra": [HUGE[:1000]]}))
    return out


def path_values(live: dict[str, str]) -> dict[str, list[str]]:
    odd = ["x", "0", "%00", "%F0%9F%99%82", "a" * 3_000, "..%2F..", "r1d1", "t_%20"]
    return {
        "tournament_id": [live["tournament_id"], *odd],
        "duel_id": ["r1d1", "r99d1", *odd],
        "lobby_id": [live["lobby_id"], *odd],
        "group_id": [live["group_id"], *odd],
        "member_id": [live["member_id"], *odd],
    }


def expand(path: str, values: dict[str, list[str]], rng: random.Random) -> list[str]:
    names = re.findall(r"{([^}]+)}", path)
    if not names:
        return [path]
    urls = []
    for name in names:  # every odd value of each parameter, the others real
        for value in values[name]:
            url = path
            for other in names:
                url = url.replace("{" + other + "}", value if other == name else values[other][0])
            urls.append(url)
    return urls


def setup_world(game: Game) -> tuple[list[Player], dict[str, str]]:
    players = game.new_players(9)
    tid = game.queue(players[:8])
    game.clock.advance(TIMING.intro_ms)
    lonely = players[8]
    group = game.post("/v1/groups", lonely, json={"language": "en"}).get_json()
    lobby = game.post("/v1/queue", lonely, json={"language": "en"}).get_json()
    return players, {
        "tournament_id": tid,
        "lobby_id": lobby["id"],
        "group_id": group["id"],
        "member_id": lonely.id,
    }


def check(response: Any, where: str) -> None:
    status = response.status_code
    assert status < 500 or status == 503, (where, status, response.get_data(as_text=True)[:300])
    if status >= 400:
        body = response.get_json(silent=True)
        assert body is not None and set(body) == {"error"}, (where, status, response.data[:200])
        assert isinstance(body["error"]["code"], str) and isinstance(body["error"]["message"], str)


def send(game: Game, method: str, url: str, player: Player | None, how: str, what: Any) -> Any:
    headers = dict(player.headers) if player else {}
    if how == "raw":
        return game.client.open(
            url, method=method, headers=headers, data=what, content_type="application/json"
        )
    return game.client.open(url, method=method, headers=headers, json=what)


def test_fuzz_every_route_every_odd_body(
    make_app: Any, repo: Any, clock: FakeClock, settings: Settings
) -> None:
    """Without rate limits, so that every request goes as deep as it can."""
    app: Flask = make_app(repo, settings=replace(settings, rate_limits=False))
    game = game_for(app, clock, repo)
    players, live = setup_world(game)
    rng = random.Random(42)
    values = path_values(live)
    all_bodies = bodies(rng)
    sent = 0
    for path, method in sorted(app_routes(app)):
        real, *odd = expand(path, values, rng)
        plan = [(real, players[0], b) for b in all_bodies]  # every body, with real ids
        plan += [(real, players[8], b) for b in rng.sample(all_bodies, 10)]  # an outsider
        plan += [(real, None, b) for b in rng.sample(all_bodies, 5)]  # no token
        plan += [(url, players[0], b) for url in odd for b in rng.sample(all_bodies, 5)]
        for url, who, (how, what) in plan:
            r = send(game, method.upper(), url, who, how, what)
            check(r, f"{method} {url[:100]} {how} {json.dumps(what, default=repr)[:200]}")
            sent += 1
            clock.advance(rng.randrange(0, 400))
    assert sent > 3_000


def test_fuzz_odd_headers(game: Game) -> None:
    players, live = setup_world(game)
    url = f"/v1/tournaments/{live['tournament_id']}/state"
    token = players[0].token
    for header in (
        "Bearer " + token + "\u00ff",
        "Bearer " + token.replace(".", ".."),
        "Bearer " + "." * 150,
        "Bearer " + "a" * 150 + "." + "b",
        "Bearer p_" + "\u00e9" * 20 + ".x",
        "Bearer  " + token,
        token,
    ):
        check(game.client.get(url, headers={"Authorization": header}), header)
    for etag in ("", "*", '"', "W/" + "x" * 5000, '"a", "b", "c"'):
        check(game.client.get(url, headers={**players[0].headers, "If-None-Match": etag}), etag)
    r = game.client.get(url, headers={**players[0].headers, "If-None-Match": "*"})
    assert r.status_code in (200, 304)


@BOTH
def test_fuzz_path_ids_on_each_repository(game: Game) -> None:
    """Odd ids reach the storage: too long, control characters, unicode — never a 500."""
    players, live = setup_world(game)
    values = path_values(live)
    rng = random.Random(1)
    for path, method in sorted(app_routes(game.client.application)):
        for url in expand(path, values, rng):
            r = game.client.open(url, method=method.upper(), headers=players[0].headers, json={})
            check(r, f"{method} {url[:120]}")
    for pid in ("a" * 190, "\u0000", "p_\u00e9\u00e9"):
        r = game.client.get("/v1/me", headers={"Authorization": f"Bearer {pid}.secret"})
        check(r, pid)
        assert r.status_code == 401


@pytest.mark.parametrize("route", ["/v1/queue", "/v1/groups"])
def test_fuzz_languages_are_checked(game: Game, route: str) -> None:
    p = game.new_player()
    for value in ODD_VALUES:
        r = game.post(route, p, json={"language": value})
        check(r, repr(value)[:50])
        assert r.status_code in (400, 422), (value, r.status_code)
