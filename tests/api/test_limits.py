"""Rate limits: every route has budgets per token and per address, shared by every instance
(they live in storage), sliding (no double budget at a window boundary), IPv6 per /64; player
creations per address, per network and a global ceiling (the crowds and floods are in
test_creation_limits.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from api.config import Settings
from api.http.limits import ROUTES, client_address, documented_path
from api.service.creation_limits import ADDRESS, Ceilings, describe
from api.service.errors import TooManyRequests
from api.service.limits import (
    Budget,
    Limiter,
    address_subject,
    estimate,
    spread,
    spread_shards,
    wait_ms,
)
from api.storage.memory import InMemoryRepository
from tests.api.clock import FakeClock
from tests.api.conftest import EVERY_STORE, T0, game_for
from tests.api.game import Game, Player

MINUTE = 60_000


def create(game: Game, address: str, **kw: Any) -> Any:
    return game.post("/v1/players", environ_base={"REMOTE_ADDR": address}, **kw)


def seeded(app: Flask, seed: int = 1) -> Flask:
    app.extensions["service"].ctx.limiter.rng = random.Random(seed)
    return app


# ---------------------------------------------------------------------------- creation


@EVERY_STORE
def test_r18_creation_has_no_double_budget_across_a_window_boundary(game: Game) -> None:
    """Fixed windows let twice the budget through in a moment across a boundary."""
    boundary = (T0 // MINUTE + 1) * MINUTE
    game.clock.set(boundary - 200)
    statuses = [create(game, "192.0.2.7").status_code for _ in range(ADDRESS.per)]
    assert statuses == [201] * ADDRESS.per
    game.clock.set(boundary + 200)
    r = create(game, "192.0.2.7")
    assert r.status_code == 429, "a new window must not bring a fresh budget at once"
    # The burst weighs fully at the boundary and fades over the next window: one more fits
    # once a 60th of it has passed (60 · (1 − 1/60) = 59).
    assert r.headers["Retry-After"] == "1"
    game.clock.set(boundary + 1_000)
    assert create(game, "192.0.2.7").status_code == 201


def test_r18_creation_counts_an_ipv6_64_as_one_address(game: Game) -> None:
    for host in range(1, ADDRESS.per + 1):
        assert create(game, f"2001:db8:5:6::{host:x}").status_code == 201
    assert create(game, "2001:db8:5:6:ffff:ffff:ffff:ffff").status_code == 429
    assert create(game, "2001:db8:5:7::1").status_code == 201  # another /64


def test_r18_player_creation_has_a_global_ceiling(make_app: Any, clock: FakeClock) -> None:
    """The ceiling (12 here) and the quiet networks' reserve (half of it) hold, whoever asks."""
    repo = InMemoryRepository()
    app = make_app(repo, settings=Settings(creations_per_minute=12))
    game = game_for(app, clock, repo)
    # Each /16 takes at most a quarter of the ceiling: four of them fill it.
    made = [create(game, f"127.{b}.0.{i}").status_code for b in range(4) for i in range(1, 5)]
    assert made == ([201] * 3 + [429]) * 4
    # Fresh networks: the reserve (6), then nobody.
    made = [create(game, f"127.{b}.0.1").status_code for b in range(10, 17)]
    assert made == [201] * 6 + [429]
    r = create(game, "127.99.0.1")
    assert r.status_code == 429 and r.headers["Retry-After"]
    assert r.get_json()["error"]["details"]["scope"] == "global"


def test_r18_a_large_global_ceiling_spreads_over_shards_and_still_holds(
    make_app: Any, clock: FakeClock
) -> None:
    """At a million players the ceiling is large: one counter would be a hot item (1,000
    writes a second at most), so it is counted on shards, each with its share."""
    ceiling = Budget(30_000, 60)
    assert spread_shards(ceiling) == 5 and spread_shards(Budget(600, 60)) == 1
    rng = random.Random(3)
    keys = {spread("create:*", ceiling, rng)[0] for _ in range(200)}
    assert keys == {f"create:*#{n}" for n in range(5)}
    assert spread("create:*", Budget(600, 60), rng) == ("create:*", Budget(600, 60))
    repo = InMemoryRepository()
    app = seeded(make_app(repo, settings=Settings(creations_per_minute=30_000)))
    game = game_for(app, clock, repo)
    app.extensions["service"].ctx.rng = random.Random(5)
    made = [create(game, f"10.{i // 250}.{i % 250}.1").status_code for i in range(120)]
    assert made == [201] * len(made)  # far under the ceiling: nobody refused
    counters = [k for k in repo._counters if k.startswith("create:*")]
    assert len(counters) == 5
    # The /16's share (a quarter: 7,500 a minute, 125 a second) is spread too.
    assert spread_shards(Ceilings(30_000).block) == 2


def test_bots_created_with_the_bot_key_skip_the_creation_limits(
    make_app: Any, clock: FakeClock
) -> None:
    repo = InMemoryRepository()
    app = make_app(repo, settings=Settings(bot_key="k", creations_per_minute=1))
    game = game_for(app, clock, repo)
    for _ in range(8):
        r = create(game, "127.0.0.1", json={"bot": True}, headers={"X-Bot-Key": "k"})
        assert r.status_code == 201


# ---------------------------------------------------------------------------- every route


def test_every_route_has_a_per_token_and_a_per_address_budget(app: Flask) -> None:
    authenticated = {"/v1/me", "/v1/queue", "/v1/lobbies", "/v1/groups", "/v1/tournaments"}
    public = {("GET", "/v1/tournaments/{tournament_id}/summary")}  # results anyone may read
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            route = (method, documented_path(rule.rule))
            assert route in ROUTES, f"{method} {rule.rule} has no budgets"
            per_token, per_address = ROUTES[route]
            assert per_address is not None
            if route in public:
                assert per_token is None, f"{method} {rule.rule} reads no token"
            elif any(rule.rule.startswith(prefix) for prefix in authenticated):
                assert per_token is not None, f"{method} {rule.rule} has no per-token budget"


def test_polls_are_limited_per_token_and_the_advised_cadence_is_not(
    make_app: Any, clock: FakeClock
) -> None:
    repo = InMemoryRepository()
    game = game_for(seeded(make_app(repo)), clock, repo)
    tid, players = game.start_tournament()
    url = f"/v1/tournaments/{tid}/state"
    me = players[0]
    # The fastest advised cadence (1 s) for ten minutes: never limited.
    for _ in range(600):
        assert game.get(url, me).status_code == 200
        clock.advance(1_000)
    # Ten polls a second: limited within the first minute, with Retry-After.
    statuses = []
    for _ in range(600):
        r = game.get(url, me)
        statuses.append(r.status_code)
        clock.advance(100)
        if r.status_code == 429:
            assert 1 <= int(r.headers["Retry-After"]) <= 60
            break
    assert statuses[-1] == 429 and len(statuses) < 600
    # Another player of the same tournament is not limited by it.
    assert game.get(url, players[1]).status_code == 200


def test_unauthenticated_routes_are_limited_per_address(app: Flask, game: Game) -> None:
    seeded(app)
    near = {"environ_base": {"REMOTE_ADDR": "203.0.113.9"}}
    statuses = [game.get("/v1/languages", **near).status_code for _ in range(400)]
    assert 429 in statuses and statuses[:100] == [200] * 100
    assert (
        game.get("/v1/languages", environ_base={"REMOTE_ADDR": "203.0.113.10"}).status_code == 200
    )
    # Paths that match no route count too.
    statuses = [game.get("/v1/nothing-here", **near).status_code for _ in range(400)]
    assert 429 in statuses


def test_a_limited_player_is_limited_per_route(game: Game) -> None:
    p = game.new_player()
    for _ in range(10):
        game.call("PATCH", "/v1/me", p, json={"nickname": "Same Name"})
    r = game.call("PATCH", "/v1/me", p, json={"nickname": "Same Name"})
    assert r.status_code == 429 and 1 <= int(r.headers["Retry-After"]) <= 3600
    assert game.get("/v1/me", p).status_code == 200  # another route's budget


def test_wt_rate_limits_0_turns_every_limit_off(make_app: Any, clock: FakeClock) -> None:
    repo = InMemoryRepository()
    settings = Settings.from_env({"WT_RATE_LIMITS": "0"})
    game = game_for(make_app(repo, settings=settings), clock, repo)
    assert all(create(game, "192.0.2.50").status_code == 201 for _ in range(2 * ADDRESS.per))


# ---------------------------------------------------------------------------- the client address


def test_the_client_address_comes_from_api_gateway_not_from_x_forwarded_for() -> None:
    """zappa puts the second to last X-Forwarded-For entry in REMOTE_ADDR, which a client sets
    by sending its own header: the event's requestContext has the address API Gateway saw."""
    v2 = {"version": "2.0", "requestContext": {"http": {"sourceIp": "198.51.100.4"}}}
    environ = {"REMOTE_ADDR": "6.6.6.6", "HTTP_X_FORWARDED_FOR": "6.6.6.6, 198.51.100.4"}
    assert client_address({**environ, "lambda.event": v2}) == "198.51.100.4"
    v1 = {"requestContext": {"identity": {"sourceIp": "198.51.100.5"}}}
    assert client_address({**environ, "lambda.event": v1}) == "198.51.100.5"
    assert client_address({"REMOTE_ADDR": "127.0.0.1"}) == "127.0.0.1"  # local: the peer


def test_a_forged_x_forwarded_for_does_not_buy_a_new_budget(app: Flask, game: Game) -> None:
    v2 = {"version": "2.0", "requestContext": {"http": {"sourceIp": "198.51.100.4"}}}
    statuses = [
        create(
            game,
            f"10.0.0.{i}",  # what zappa would take from a forged header
            environ_overrides={"lambda.event": v2},
        ).status_code
        for i in range(1, ADDRESS.per + 3)
    ]
    assert statuses == [201] * ADDRESS.per + [429] * 2


@pytest.mark.parametrize(
    ("address", "subject"),
    [
        ("192.0.2.1", "ip:192.0.2.1"),
        ("2001:db8:1:2:3:4:5:6", "ip:2001:db8:1:2::/64"),
        ("2001:DB8:1:2::ffff", "ip:2001:db8:1:2::/64"),
        ("::ffff:192.0.2.1", "ip:192.0.2.1"),
        ("", "ip:unknown"),
        ("not an address", "ip:unknown"),
    ],
)
def test_address_subjects(address: str, subject: str) -> None:
    assert address_subject(address) == subject


# ---------------------------------------------------------------------------- the arithmetic


def test_the_estimate_weighs_the_previous_window_by_what_the_slide_still_covers() -> None:
    assert estimate(0, 10, 0.0) == 10
    assert estimate(3, 10, 0.25) == 3 + 7.5
    assert estimate(3, 10, 1.0) == 3


@hsettings(max_examples=60, deadline=None)
@given(
    per=st.integers(1, 30),
    window_s=st.integers(1, 120),
    gaps=st.lists(st.integers(0, 20_000), min_size=1, max_size=150),
)
def test_no_burst_beyond_the_budget_like_a_token_bucket(
    per: int, window_s: int, gaps: list[int]
) -> None:
    """Whatever the arrivals, any span of d ms admits at most per * (1 + d / window) + 1."""
    clock = FakeClock(T0)
    limiter = Limiter(InMemoryRepository(), clock)
    budget = Budget(per, window_s)
    admitted: list[int] = []
    for gap in gaps:
        clock.advance(gap)
        try:
            limiter.spend("k", budget)
            admitted.append(clock.ms)
        except TooManyRequests as refused:
            assert refused.retry_after >= 1
    window = window_s * 1000
    for i, start in enumerate(admitted):
        for j in range(i, len(admitted)):
            span = admitted[j] - start
            assert j - i + 1 <= per * (1 + span / window) + 1, (per, window, admitted)


def test_a_refusal_names_a_wait_after_which_one_more_request_fits() -> None:
    clock = FakeClock(T0 - T0 % 60_000 + 50_000)
    repo = InMemoryRepository()
    limiter = Limiter(repo, clock)
    budget = Budget(10, 60)
    for _ in range(10):
        limiter.spend("k", budget)
    with pytest.raises(TooManyRequests) as refused:
        limiter.spend("k", budget)
    # Another instance (no local block) agrees only once the wait has passed.
    other = Limiter(repo, clock)
    wait = wait_ms(10, 10, 0, 60_000, 50_000)
    clock.advance(wait - 1)
    with pytest.raises(TooManyRequests):
        other.spend("k", budget)
    clock.advance(1)
    other.spend("k", budget)
    assert refused.value.retry_after == -(-wait // 1000)


def test_limits_are_shared_by_every_instance(make_app: Any, clock: FakeClock) -> None:
    """Two app instances over one store spend one budget."""
    repo = InMemoryRepository()
    one, two = (game_for(make_app(repo), clock, repo) for _ in range(2))
    statuses = [create((one, two)[i % 2], "192.0.2.99").status_code for i in range(ADDRESS.per + 1)]
    assert statuses == [201] * ADDRESS.per + [429]


def test_a_token_budget_counts_the_player_not_the_address(game: Game) -> None:
    p: Player = game.new_player()
    for i in range(20):
        r = game.post(
            "/v1/queue", p, json={"language": "en"}, environ_base={"REMOTE_ADDR": f"10.9.0.{i}"}
        )
        assert r.status_code in (201, 409)
        game.delete("/v1/queue", p)
    r = game.post("/v1/queue", p, json={"language": "en"}, environ_base={"REMOTE_ADDR": "10.9.1.1"})
    assert r.status_code == 429


def test_budgets_describe_themselves_for_the_readme() -> None:
    assert Budget(5, 600).describe() == "5/10 min"
    assert Budget(30, 10).describe() == "30/10 s"
    assert Budget(10, 3600).describe() == "10/h"
    assert Budget(240, 60, 10).describe() == "240/min (sampled 1 in 10)"


def test_the_readme_table_lists_every_route_with_its_budgets() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for (method, path), (per_token, per_address) in ROUTES.items():
        token = per_token.describe() if per_token else "–"
        row = f"| {method} | `{path}` | {token} | {per_address.describe()} |"
        assert row in readme, f"README.md lacks the row {row}"


def test_the_readme_lists_the_creation_budgets() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for subject, budget in describe(Settings().creations_per_minute):
        row = f"| {subject} | {budget.describe()} |"
        assert row in readme, f"README.md lacks the row {row}"
