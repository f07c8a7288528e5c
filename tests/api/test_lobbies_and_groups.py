"""Players, the queue, lobbies and groups over HTTP: R18, R19, R22, R25, D6, D7, D11, D14."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from flask import Flask

from api.config import Settings
from api.storage.repository import Put, Repository
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, TIMING, game_for
from tests.api.game import Game, Player


def set_rating(game: Game, player: Player, rating: int) -> None:
    """Test set-up through the repository: a player who has played before."""
    record = game.repo.get_player(player.id)
    assert record is not None
    game.repo.commit([Put(replace(record, rating=rating))])


def join(game: Game, player: Player, language: str = "en") -> dict:
    r = game.post("/v1/queue", player, json={"language": language})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_r25_anonymous_players_get_a_generated_nickname_they_may_change(game: Game) -> None:
    a, b = game.new_player(), game.new_player()
    assert a.nickname and b.nickname and a.id != b.id
    me = game.me(a)
    assert me == {
        "id": a.id,
        "nickname": a.nickname,
        "rating": 1000,
        "tournaments_played": 0,
        "lobby_id": None,
        "tournament_id": None,
        "last_tournament_id": None,
        "group_id": None,
        "bot": False,
        "where": {
            "lobby_id": None,
            "tournament_id": None,
            "group_id": None,
            "last_tournament_id": None,
        },
    }
    r = game.call("PATCH", "/v1/me", a, json={"nickname": "  Zoë   the  Great "})
    assert r.status_code == 200 and r.get_json()["nickname"] == "Zoë the Great"
    assert "token" not in r.get_json() and "token_hash" not in r.get_json()


def test_d7_the_eighth_seat_starts_the_tournament(game: Game) -> None:
    players = game.new_players(8)
    lobby = None
    for i, p in enumerate(players):
        lobby = join(game, p)
        assert lobby["open_seats"] == 7 - i
        assert (lobby["tournament_id"] is None) == (i < 7)
    assert lobby is not None
    tid = lobby["tournament_id"]
    seen = game.get(f"/v1/lobbies/{lobby['id']}", players[0]).get_json()
    assert seen["tournament_id"] == tid and len(seen["seats"]) == 8
    assert all(s["nickname"] for s in seen["seats"])
    for p in players:
        me = game.me(p)
        assert me["tournament_id"] == tid and me["lobby_id"] is None
    # R19 no longer applies: the queue cannot be left, the tournament can (R20).
    r = game.delete("/v1/queue", players[0])
    assert r.status_code == 409


def test_r19_leaving_the_lobby_before_the_start_costs_nothing(game: Game) -> None:
    a, b = game.new_players(2)
    lobby = join(game, a)
    assert join(game, b)["id"] == lobby["id"]
    status = game.get("/v1/queue", a).get_json()
    assert status["queued"] and status["lobby"]["id"] == lobby["id"]
    assert game.delete("/v1/queue", a).status_code == 204
    assert game.me(a)["lobby_id"] is None and game.me(a)["rating"] == 1000
    assert game.get("/v1/queue", a).get_json()["queued"] is False
    left = game.get(f"/v1/lobbies/{lobby['id']}", b).get_json()
    assert [s["player_id"] for s in left["seats"]] == [b.id]
    # The last one out empties (deletes) the lobby; joining again opens a new one.
    assert game.delete("/v1/queue", b).status_code == 204
    assert game.get(f"/v1/lobbies/{lobby['id']}", b).status_code == 404
    assert join(game, a)["id"] != lobby["id"]


def test_d14_one_lobby_at_a_time(game: Game) -> None:
    a = game.new_player()
    first = join(game, a)
    assert join(game, a)["id"] == first["id"]  # joining again is harmless
    r = game.post("/v1/queue", a, json={"language": "fr"})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "already_in_lobby"


def keep_polling(game: Game, players: list[Player], ms: int, every: int = 30_000) -> None:
    """Time passes while the players poll the queue (D16: a silent player loses the seat)."""
    end = game.clock.ms + ms
    while game.clock.ms < end:
        game.clock.advance(min(every, end - game.clock.ms))
        for p in players:
            assert game.get("/v1/queue", p).status_code == 200


@BOTH
def test_r18_matchmaking_window_is_200_and_never_widens(game: Game) -> None:
    low, high, edge = game.new_players(3)
    set_rating(game, high, 1450)  # too far to share any lobby with 1000 (D15: mean 1225)
    set_rating(game, edge, 1200)
    lobby = join(game, low)
    status = game.get("/v1/queue", high).get_json()
    assert status["window"] == {"rating": 1450, "min": 1250, "max": 1650, "widens": False}
    far = join(game, high)
    assert far["id"] != lobby["id"]
    keep_polling(game, [low, high], 30 * 60_000)  # half an hour later: still apart
    status = game.get("/v1/queue", high).get_json()
    assert status["waited_ms"] == 30 * 60_000 and status["lobby"]["id"] == far["id"]
    assert status["window"]["min"] == 1250
    assert game.delete("/v1/queue", high).status_code == 204
    assert join(game, high)["id"] != lobby["id"]
    assert game.delete("/v1/queue", high).status_code == 204
    # Exactly 200 points away is within the window (D6: ≤ 200).
    assert join(game, edge)["id"] == lobby["id"]


def start_group(game: Game, leader: Player, *members: Player) -> dict:
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    for m in members:
        game.post("/v1/groups/join", m, json={"invite_code": group["invite_code"]})
    r = game.post(f"/v1/groups/{group['id']}/start", leader)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


@BOTH
def test_d6_prefers_the_fullest_then_closest_then_oldest_lobby(game: Game) -> None:
    # Two open lobbies that stay apart need two groups: groups' lobbies never merge (D15).
    a1, a2, b1, b2, newcomer, late = game.new_players(6)
    set_rating(game, b1, 1100)
    set_rating(game, b2, 1100)
    set_rating(game, late, 1090)
    near = start_group(game, a1, a2)
    away = start_group(game, b1, b2)
    assert near["id"] != away["id"] and (near["rating"], away["rating"]) == (1000, 1100)
    # Both hold 2: equally full, so the closest rating wins (1000 vs 1100 for a 1000 player).
    assert join(game, newcomer)["id"] == near["id"]
    # Now `near` (3) is fuller: a 1090 player still prefers it over the closer one.
    assert join(game, late)["id"] == near["id"]


def test_d11_invites_leaders_and_membership(game: Game) -> None:
    leader, a, b, *others = game.new_players(10)
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    gid, code = group["id"], group["invite_code"]
    assert len(code) > len(gid) + 20  # unguessable: ≥ 128 random bits after the id
    assert game.post("/v1/groups/join", a, json={"invite_code": code}).status_code == 200
    assert game.post("/v1/groups/join", a, json={"invite_code": code}).status_code == 200  # again
    # The leader revokes the code with a new one.
    r = game.post(f"/v1/groups/{gid}/invite", leader)
    assert r.status_code == 200
    new_code = r.get_json()["invite_code"]
    assert new_code != code
    r = game.post("/v1/groups/join", b, json={"invite_code": code})
    assert r.status_code == 404 and r.get_json()["error"]["code"] == "bad_invite"
    forged = gid + "." + "A" * 24
    assert game.post("/v1/groups/join", b, json={"invite_code": forged}).status_code == 404
    assert game.post("/v1/groups/join", b, json={"invite_code": new_code}).status_code == 200
    # At most 8 members.
    for p in others[:5]:
        assert game.post("/v1/groups/join", p, json={"invite_code": new_code}).status_code == 200
    r = game.post("/v1/groups/join", others[5], json={"invite_code": new_code})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "group_full"
    # One group at a time.
    r = game.post("/v1/groups", a, json={"language": "en"})
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "already_in_group"
    # The leader leaves: the longest-standing member leads.
    assert game.delete(f"/v1/groups/{gid}/members/{leader.id}", leader).status_code == 204
    view = game.get(f"/v1/groups/{gid}", a).get_json()
    assert view["leader"] == a.id and leader.id not in [m["player_id"] for m in view["members"]]
    assert game.me(leader)["group_id"] is None
    assert game.get(f"/v1/groups/{gid}", leader).status_code == 403
    # The new leader removes a member.
    r = game.delete(f"/v1/groups/{gid}/members/{b.id}", a)
    assert r.status_code == 200 and b.id not in [m["player_id"] for m in r.get_json()["members"]]
    assert game.me(b)["group_id"] is None


@BOTH
def test_r22_whole_group_of_eight_starts_at_once(game: Game) -> None:
    leader, *friends = game.new_players(8)
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    for f in friends:
        game.post("/v1/groups/join", f, json={"invite_code": group["invite_code"]})
    r = game.post(f"/v1/groups/{group['id']}/start", leader)
    assert r.status_code == 201
    tid = r.get_json()["tournament_id"]
    assert tid is not None and r.get_json()["open_seats"] == 0
    st = game.state(friends[3], tid)
    assert {p["id"] for p in st["players"]} == {p.id for p in [leader, *friends]}


def test_the_queue_says_when_house_bots_fill_the_lobby(
    make_app: Callable[..., Flask], clock: FakeClock, repo: Repository
) -> None:
    """`bots_at`: WT_BOT_FILL_SECONDS after the lobby's last seat was taken, and later again
    when someone sits down; null when house bots are off, for a player not queued, and once
    the lobby has started."""
    fill = 15_000
    game = game_for(
        make_app(repo, settings=Settings(timing=TIMING, house_bots=True, bot_fill_ms=fill)),
        clock,
        repo,
    )
    first, second = game.new_players(2)
    assert game.get("/v1/queue", first).get_json()["bots_at"] is None  # not queued
    join(game, first)
    seated_at = game.clock.ms
    assert game.get("/v1/queue", first).get_json()["bots_at"] == seated_at + fill
    game.clock.advance(4_000)
    join(game, second)
    for p in (first, second):
        assert game.get("/v1/queue", p).get_json()["bots_at"] == seated_at + 4_000 + fill
    rest = game.new_players(6)
    for p in rest:
        join(game, p)
    assert game.get("/v1/queue", first).get_json()["bots_at"] is None  # full: it started

    off = game_for(make_app(repo, settings=Settings(timing=TIMING, house_bots=False)), clock, repo)
    alone = off.new_player()
    join(off, alone)
    status = off.get("/v1/queue", alone).get_json()
    assert status["queued"] and status["bots_at"] is None
