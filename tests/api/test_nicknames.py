"""R25 nicknames over HTTP: fillers and blocked words refused (422), a look-alike of another
player's name in the same lobby or group refused (422 too), and a tournament that starts with
look-alike names shows them numbered."""

from __future__ import annotations

from typing import Any

import pytest

from api.service import Service
from api.service.leaderboards import BOARDS, REFRESH_MS
from api.storage.memory import InMemoryRepository
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, game_for
from tests.api.error_checks import assert_error
from tests.api.game import Game, Player
from tests.api.repos import CountingRepo


def rename(game: Game, player: Player, nickname: str) -> Any:
    return game.call("PATCH", "/v1/me", player, json={"nickname": nickname})


@pytest.mark.parametrize("nickname", ["\u3164\u3164\u3164", "\u0640\u0640\u0640", "a\u200bbc"])
def test_r25_filler_nicknames_are_422(game: Game, nickname: str) -> None:
    p = game.new_player()
    assert_error(rename(game, p, nickname), 422, "invalid_nickname")
    assert game.me(p)["nickname"] == p.nickname


@pytest.mark.parametrize("nickname", ["BigFuck", "СУКА", "Kurwa Mać", "Hurensohn"])
def test_r25_blocked_words_are_422(game: Game, nickname: str) -> None:
    p = game.new_player()
    assert_error(rename(game, p, nickname), 422, "invalid_nickname")


@pytest.mark.parametrize(
    ("nickname", "reason", "characters"),
    [
        ("ab", "length", []),
        ("Ace\u3164Bob", "invisible", []),
        ("Ace@Home!", "characters", ["!", "@"]),
        ("1234", "letter", []),
        ("BigFuck", "blocked", []),
    ],
)
def test_r25_a_refused_nickname_names_its_reason(
    game: Game, nickname: str, reason: str, characters: list[str]
) -> None:
    """A stable reason per rule, so that a client explains it in the player's language."""
    error = assert_error(rename(game, game.new_player(), nickname), 422, "invalid_nickname")
    assert error["details"]["reason"] == reason
    assert error["details"]["characters"] == characters


def test_r25_innocent_names_pass(game: Game) -> None:
    p = game.new_player()
    for nickname in ("Scunthorpe", "Dickens", "Страхуй"):
        r = rename(game, p, nickname)
        assert r.status_code == 200, (nickname, r.get_json())


@BOTH
def test_r25_a_look_alike_of_a_lobby_mates_name_is_422(game: Game) -> None:
    a, b, c = game.new_players(3)
    assert rename(game, a, "Alice").status_code == 200
    for p in (a, b):
        assert game.post("/v1/queue", p, json={"language": "en"}).status_code == 201
    for lookalike in ("Alice", "alice", "Аlice", "A l i c e", "Ａｌｉｃｅ"):
        error = assert_error(rename(game, b, lookalike), 422, "invalid_nickname")
        assert error["details"]["reason"] == "look_alike"
    assert rename(game, b, "Alicia").status_code == 200
    # Not seated with Alice: free to use it (names are not unique worldwide).
    assert rename(game, c, "Alice").status_code == 200


def test_r25_a_look_alike_of_a_group_members_name_is_422(game: Game) -> None:
    leader, friend = game.new_players(2)
    assert rename(game, leader, "Boris").status_code == 200
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    r = game.post("/v1/groups/join", friend, json={"invite_code": group["invite_code"]})
    assert r.status_code == 200
    assert_error(rename(game, friend, "Вoris"), 422, "invalid_nickname")


@BOTH
def test_r25_a_tournament_numbers_look_alike_names(game: Game) -> None:
    players = game.new_players(8)
    # Renamed before sitting down, so nothing refused them: Bob, a Cyrillic Воb, and bob.
    for p, nickname in zip(players[:3], ("Bob", "Воb", "bob"), strict=True):
        assert rename(game, p, nickname).status_code == 200
    game.post("/v1/queue", players[0], json={"language": "en"})
    lobby_id = game.me(players[0])["lobby_id"]
    game.post("/v1/queue", players[1], json={"language": "en"})
    seats = game.get(f"/v1/lobbies/{lobby_id}", players[0]).get_json()["seats"]
    assert [s["nickname"] for s in seats] == ["Bob", "Воb 2"]
    tid = game.queue(players[2:])
    state = game.state(players[0], tid)
    shown = {p["id"]: p["nickname"] for p in state["players"]}
    assert shown[players[0].id] == "Bob"
    assert shown[players[1].id] == "Воb 2"
    assert shown[players[2].id] == "bob 3"
    assert len(set(shown.values())) == 8
    # The players' own nicknames are unchanged.
    assert game.me(players[1])["nickname"] == "Воb"


def test_r25_a_look_alike_of_a_name_on_a_leaderboard_is_422(game: Game, service: Service) -> None:
    """A Cyrillic РауРаl must not stand beside PayPal on the leaderboard, wherever
    the renaming player is; the player shown may still vary their own name."""
    players = game.new_players(8)
    assert rename(game, players[0], "PayPal").status_code == 200
    tid = game.queue(players)
    game.play_to_end(tid, players)
    game.clock.advance(REFRESH_MS)
    assert service.refresh_leaderboards() == 14
    shown = game.get("/v1/leaderboard").get_json()["top"]
    assert "PayPal" in [line["nickname"] for line in shown]
    stranger = game.new_player()
    for lookalike in ("РауРаl", "PayPal", "paypal", "Pay Pal", "PayPaI"):
        error = assert_error(rename(game, stranger, lookalike), 422, "invalid_nickname")
        assert error["details"]["reason"] == "look_alike"
        assert "leaderboard" in error["message"]
    assert rename(game, stranger, "PayPals").status_code == 200
    assert rename(game, players[0], "Pay Pal").status_code == 200  # their own name


def test_r25_the_leaderboard_check_reads_each_board_once_a_minute_per_instance(
    make_app: Any, clock: FakeClock
) -> None:
    """The cost of the check per rename: the 14 boards are read on the first rename and then
    at most once a minute, on this instance; renames in between read none."""
    counting = CountingRepo(InMemoryRepository())
    game = game_for(make_app(counting), clock, counting)
    players = game.new_players(3)
    counting.reset()
    for i, p in enumerate(players * 3):
        assert rename(game, p, f"Name {i}").status_code == 200
        clock.advance(1_000)
    assert counting.calls_to("get_board") == len(BOARDS)
    clock.advance(REFRESH_MS)
    assert rename(game, players[0], "Later").status_code == 200
    assert counting.calls_to("get_board") == 2 * len(BOARDS)
