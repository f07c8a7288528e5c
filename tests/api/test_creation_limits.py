"""Player creation that lets honest crowds in (R18's budgets for new players, rate limits on):
a class of 30 and eight friends on one address, a flood from a whole /16 or /48 that leaves
everyone else their players, floods from several blocks that leave quiet networks theirs, and
every refusal a 429 that says why and when to try again.

Client addresses are loopback or documentation ranges, set only in the WSGI environ.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from api.config import Settings
from api.service.creation_limits import ADDRESS, NETWORK, QUIET, Ceilings, subjects
from api.storage.memory import InMemoryRepository
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, game_for
from tests.api.error_checks import assert_error
from tests.api.game import Game, Player

DEFAULT = Settings().creations_per_minute


def create(game: Game, address: str) -> Any:
    return game.post("/v1/players", environ_base={"REMOTE_ADDR": address})


def refusal(response: Any) -> str:
    """The scope of a refused creation, after checking the 429's contract."""
    error = assert_error(response, 429, "too_many_new_players")
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 60
    assert error["details"]["retry_after"] == retry_after
    assert f"try again in {retry_after} s" in error["message"]
    scope: str = error["details"]["scope"]
    assert scope in ("address", "network", "global")
    return scope


def flood(game: Game, addresses: list[str], step_ms: int = 10) -> tuple[int, Counter[str]]:
    """Creations from each address in turn, as fast as the client can send them: how many got
    through, and the scopes of the refusals."""
    made, refused = 0, Counter[str]()
    for address in addresses:
        r = create(game, address)
        if r.status_code == 201:
            made += 1
        else:
            refused[refusal(r)] += 1
        game.clock.advance(step_ms)
    return made, refused


@BOTH
def test_r18_a_class_of_30_on_one_address_each_make_a_player_within_a_minute(game: Game) -> None:
    statuses = []
    for _ in range(30):
        statuses.append(create(game, "127.0.0.30").status_code)
        game.clock.advance(1_500)  # 30 pupils in 45 s
    assert statuses == [201] * 30


@BOTH
def test_r18_eight_friends_on_one_address_make_players_join_a_group_by_its_link_and_start(
    game: Game,
) -> None:
    home = {"environ_base": {"REMOTE_ADDR": "127.0.0.8"}}
    friends = []
    for _ in range(8):
        r = game.post("/v1/players", **home)
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        friends.append(Player(body["id"], body["token"], body["nickname"]))
        game.clock.advance(2_000)
    leader, *others = friends
    group = game.post("/v1/groups", leader, json={"language": "en"}, **home).get_json()
    for friend in others:  # the invite link carries the code
        r = game.post("/v1/groups/join", friend, json={"invite_code": group["invite_code"]}, **home)
        assert r.status_code == 200, r.get_json()
    r = game.post(f"/v1/groups/{group['id']}/start", leader, **home)
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["tournament_id"]
    assert tid is not None
    state = game.get(f"/v1/tournaments/{tid}/state", others[-1], **home).get_json()
    assert {p["id"] for p in state["players"]} == {p.id for p in friends}


def test_r18_an_address_past_its_budget_is_told_why_and_when(game: Game) -> None:
    made, refused = flood(game, ["127.0.0.9"] * (ADDRESS.per + 40))
    assert made == ADDRESS.per and refused == {"address": 40}
    r = create(game, "127.0.0.9")
    game.clock.advance(int(r.headers["Retry-After"]) * 1000)
    assert create(game, "127.0.0.9").status_code == 201  # free again once the wait is over
    # The neighbours on its /24 are not limited by it.
    assert create(game, "127.0.0.10").status_code == 201


def test_r18_a_flood_of_requests_from_one_address_is_refused_as_creations_are(
    game: Game,
) -> None:
    """Past the route's own request budget (four times the creations), still the same 429."""
    made, refused = flood(game, ["127.0.0.11"] * 600, step_ms=1)
    assert made == ADDRESS.per and refused == {"address": 600 - ADDRESS.per}


def test_r18_a_flood_from_a_whole_16_leaves_everyone_else_their_players(game: Game) -> None:
    """An attacker with a /16 spreads over its 256 /24s and their addresses as fast as the
    limits allow: the /16 gets its quarter of the ceiling, nobody elsewhere notices."""
    block = Ceilings(DEFAULT).block.per
    addresses = [f"127.1.{i % 256}.{i // 256 + 1}" for i in range(1_200)]
    made, refused = flood(game, addresses)
    assert made == block, (made, refused)
    assert refused == {"network": len(addresses) - block}
    assert create(game, "127.1.77.200").status_code == 429  # the block is used up...
    for elsewhere in ("127.2.0.1", "127.200.5.5", "192.0.2.1", "::1", "3fff::1"):
        assert create(game, elsewhere).status_code == 201, elsewhere  # ...nowhere else


def test_r18_a_flood_from_a_whole_48_leaves_everyone_else_their_players(game: Game) -> None:
    addresses = [f"2001:db8:48:{i:x}::1" for i in range(800)]  # 800 of its 65,536 /64s
    made, refused = flood(game, addresses)
    assert made == NETWORK.per and refused == {"network": len(addresses) - NETWORK.per}
    # Another /48 of the same /32 still has the rest of the /32's share; other /32s all of it.
    for elsewhere in ("2001:db8:49::1", "3fff::1", "127.0.0.1", "192.0.2.1"):
        assert create(game, elsewhere).status_code == 201, elsewhere


def test_r18_floods_that_fill_the_ceiling_leave_quiet_networks_their_players(
    make_app: Any, clock: FakeClock
) -> None:
    """With a ceiling of 40: four /16s fill it (10 each); then a quiet /16 (at most 3 in the
    minute) still gets in from the reserve (20), which bounds the cost too: 60 at most."""
    repo = InMemoryRepository()
    ceilings = Ceilings(40)
    game = game_for(make_app(repo, settings=Settings(creations_per_minute=40)), clock, repo)
    heavy = [f"127.{b}.{i % 256}.1" for b in range(1, 5) for i in range(30)]
    made, refused = flood(game, heavy)
    assert made == ceilings.everyone.per == 4 * ceilings.block.per
    assert set(refused) == {"network"}
    # A fifth heavy block: its first creations are quiet, then the ceiling refuses it.
    made, refused = flood(game, [f"127.5.{i}.1" for i in range(10)])
    assert made == QUIET and refused == {"global": 10 - QUIET}
    assert create(game, "127.200.0.1").status_code == 201  # a person on a quiet network
    # Quiet blocks share the reserve: once it is spent, everyone waits (the cost is bounded).
    spent = ceilings.reserve.per - QUIET - 1
    made, refused = flood(game, [f"127.{100 + b}.0.1" for b in range(spent + 5)])
    assert made == spent and refused == {"global": 5}
    assert sum(1 for c in game.calls if c.status == 201) == 40 + ceilings.reserve.per


def test_r18_a_refused_creation_uses_no_budget(game: Game) -> None:
    """A creation refused for its /16 is taken back from its address and /24: once the /16
    has room again, those are as they were."""
    block = Ceilings(DEFAULT).block.per
    made, _ = flood(game, [f"127.3.{i % 200}.1" for i in range(block)])
    assert made == block
    made, refused = flood(game, ["127.3.250.1"] * 50)
    assert made == 0 and refused == {"network": 50}
    game.clock.advance(120_000)  # the /16's window has passed
    made, refused = flood(game, ["127.3.250.1"] * (ADDRESS.per + 1))
    assert made == ADDRESS.per and refused == {"address": 1}


@pytest.mark.parametrize(
    ("address", "keys"),
    [
        ("192.0.2.7", ("ip:192.0.2.7", "net:192.0.2.0/24", "blk:192.0.0.0/16")),
        ("::ffff:192.0.2.7", ("ip:192.0.2.7", "net:192.0.2.0/24", "blk:192.0.0.0/16")),
        (
            "2001:db8:1:2:3:4:5:6",
            ("ip:2001:db8:1:2::/64", "net:2001:db8:1::/48", "blk:2001:db8::/32"),
        ),
        ("not an address", ("ip:unknown", "net:unknown", "blk:unknown")),
    ],
)
def test_r18_creation_subjects_are_an_address_its_network_and_its_block(
    address: str, keys: tuple[str, str, str]
) -> None:
    assert tuple(key for _, key, _ in subjects(address)) == tuple(f"create:{k}" for k in keys)
    assert [scope for scope, _, _ in subjects(address)] == ["address", "network", "network"]
