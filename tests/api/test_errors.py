"""Every error is JSON {"error": {"code", "message"}} with the right status (R13, R25, D14)."""

from __future__ import annotations

import pytest

from tests.api.conftest import TIMING
from tests.api.error_checks import Live, assert_error, live_duels
from tests.api.game import Game, Player
from tests.api.words import fillers


@pytest.fixture
def live(game: Game) -> Live:
    return live_duels(game)


# ---------------------------------------------------------------------------- 400


def test_400_malformed_bodies(game: Game, live: Live) -> None:
    p, url = live.to_play, f"/v1/tournaments/{live.tid}/guesses"
    word = fillers("en", live.duel["word_length"])[0]
    for kwargs in (
        {"data": "not json", "content_type": "application/json"},
        {"data": "{", "content_type": "application/json"},
        {"data": "", "content_type": "application/json"},
        {"json": [0, word]},
        {"json": "row"},
        {"json": None},
        {"json": {"word": word}},
        {"json": {"row": 0}},
        {"json": {"row": "a", "word": word}},
        {"json": {"row": "0", "word": word}},
        {"json": {"row": 0.5, "word": word}},
        {"json": {"row": -1, "word": word}},
        {"json": {"row": True, "word": word}},
        {"json": {"row": None, "word": word}},
        {"json": {"row": 0, "word": 12345}},
        {"json": {"row": 0, "word": ["c", "r"]}},
        {"json": {"row": 0, "word": ""}},
        {"json": {"row": 0, "word": "a" * 65}},
    ):
        assert_error(game.post(url, p, **kwargs), 400, "malformed")
    # Well-formed, as the schema allows, but no letter in it: refused like any unplayable guess.
    for blank in ("   ", "\n", "\u00a0"):
        r = game.post(url, p, json={"row": 0, "word": blank})
        assert_error(r, 422, "invalid_characters")
    for url, body in (
        ("/v1/queue", None),
        ("/v1/groups", [1]),
        ("/v1/groups/join", {}),
        ("/v1/groups/join", {"invite_code": 5}),
    ):
        assert_error(game.post(url, p, json=body), 400, "malformed")
    assert_error(game.call("PATCH", "/v1/me", p, json={"name": "x"}), 400, "malformed")
    assert_error(game.call("PATCH", "/v1/me", p, data="nope"), 400, "malformed")
    # Nothing was played.
    assert game.state(p, live.tid)["duel"]["rows"] == []


def test_413_body_too_large(game: Game, live: Live) -> None:
    r = game.post(
        f"/v1/tournaments/{live.tid}/guesses", live.to_play, json={"row": 0, "word": "a" * 40_000}
    )
    assert_error(r, 413)


# ---------------------------------------------------------------------------- 401


@pytest.mark.parametrize(
    "header",
    [
        None,
        "",
        "Bearer",
        "Bearer ",
        "Basic dXNlcjpwYXNz",
        "bearer abc.def",
        "Bearer nodot",
        "Bearer .secret",
        "Bearer p_0000000000000000.",
        "Bearer p_0000000000000000.wrong",
        "Bearer " + "x" * 300,
    ],
)
def test_401_missing_or_bad_token(game: Game, live: Live, header: str | None) -> None:
    headers = {} if header is None else {"Authorization": header}
    for method, url in (
        ("GET", "/v1/me"),
        ("POST", "/v1/queue"),
        ("GET", f"/v1/tournaments/{live.tid}/state"),
        ("POST", f"/v1/tournaments/{live.tid}/guesses"),
        ("POST", f"/v1/tournaments/{live.tid}/leave"),
    ):
        assert_error(
            game.call(method, url, headers=headers, json={"row": 0, "word": "x"}),
            401,
            "unauthorized",
        )


def test_401_right_player_wrong_secret(game: Game, live: Live) -> None:
    p = live.players[0]
    bad = Player(p.id, p.id + ".not-the-secret", p.nickname)
    assert_error(game.get("/v1/me", bad), 401, "unauthorized")
    assert game.get("/v1/me", p).status_code == 200


# ---------------------------------------------------------------------------- 403


def test_403_guessing_in_someone_elses_tournament(game: Game, live: Live) -> None:
    outsider = game.new_player("outsider")
    url = f"/v1/tournaments/{live.tid}"
    assert_error(
        game.post(f"{url}/guesses", outsider, json={"row": 0, "word": "crane"}),
        403,
        "not_a_participant",
    )
    assert_error(game.get(f"{url}/state", outsider), 403, "not_a_participant")
    assert_error(game.get(f"{url}/duels/r1d1", outsider), 403, "not_a_participant")
    assert_error(game.post(f"{url}/leave", outsider), 403, "not_a_participant")
    # The outsider's requests changed nothing.
    assert game.state(live.to_play, live.tid)["duel"]["rows"] == []


def test_403_group_leader_member_rules(game: Game) -> None:
    leader, friend, stranger = game.new_players(3)
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    gid = group["id"]
    assert (
        game.post("/v1/groups/join", friend, json={"invite_code": group["invite_code"]}).status_code
        == 200
    )
    assert_error(game.post(f"/v1/groups/{gid}/start", friend), 403, "not_leader")
    assert_error(game.post(f"/v1/groups/{gid}/invite", friend), 403, "not_leader")
    assert_error(game.delete(f"/v1/groups/{gid}/members/{leader.id}", friend), 403, "not_leader")
    assert_error(game.get(f"/v1/groups/{gid}", stranger), 403, "not_member")
    assert_error(game.post(f"/v1/groups/{gid}/start", stranger), 403, "not_leader")
    # A lobby is visible to its seated players only.
    lobby = game.post("/v1/queue", leader, json={"language": "en"}).get_json()
    assert_error(game.get(f"/v1/lobbies/{lobby['id']}", stranger), 403)
    assert game.get(f"/v1/lobbies/{lobby['id']}", leader).status_code == 200


# ---------------------------------------------------------------------------- 404, 405


def test_404_unknown_things(game: Game, live: Live) -> None:
    p = live.players[0]
    for method, url in (
        ("GET", "/v1/tournaments/t_0000000000000000/state"),
        ("POST", "/v1/tournaments/t_0000000000000000/guesses"),
        ("POST", "/v1/tournaments/t_0000000000000000/leave"),
        ("GET", "/v1/tournaments/t_0000000000000000/duels/r1d1"),
        ("GET", f"/v1/tournaments/{live.tid}/duels/r9d9"),
        ("GET", f"/v1/tournaments/{live.tid}/duels/nope"),
        ("GET", "/v1/lobbies/l_0000000000000000"),
        ("GET", "/v1/groups/g_0000000000000000"),
        ("POST", "/v1/groups/g_0000000000000000/start"),
        ("POST", "/v1/groups/g_0000000000000000/invite"),
        ("DELETE", f"/v1/groups/g_0000000000000000/members/{p.id}"),
        ("GET", "/v1/nope"),
        ("GET", "/v2/me"),
        ("GET", "/v1"),
        ("GET", "/v1/"),
        ("POST", f"/v1/tournaments/{live.tid}"),
    ):
        assert_error(game.call(method, url, p, json={"row": 0, "word": "crane"}), 404)
    r = game.post("/v1/groups/join", p, json={"invite_code": "g_0000000000000000.nope"})
    assert_error(r, 404, "bad_invite")


def test_405_wrong_method(game: Game, live: Live) -> None:
    p = live.players[0]
    for method, url in (
        ("DELETE", "/v1/players"),
        ("PUT", "/v1/me"),
        ("DELETE", "/v1/me"),
        ("POST", "/v1/languages"),
        ("GET", f"/v1/tournaments/{live.tid}/guesses"),
        ("DELETE", f"/v1/tournaments/{live.tid}/state"),
        ("PATCH", "/v1/queue"),
    ):
        assert_error(game.call(method, url, p), 405, "method_not_allowed")


# ---------------------------------------------------------------------------- 409


def test_409_not_your_turn_and_stale_row(game: Game, live: Live) -> None:
    url = f"/v1/tournaments/{live.tid}/guesses"
    word = fillers("en", live.duel["word_length"])[0]
    error = assert_error(
        game.post(url, live.waiting, json={"row": 0, "word": word}), 409, "not_your_turn"
    )
    assert error["details"]["to_play"] == live.to_play.id
    assert_error(game.post(url, live.to_play, json={"row": 1, "word": word}), 409, "stale_row")
    ok = game.post(url, live.to_play, json={"row": 0, "word": word})
    assert ok.status_code == 200
    # A retried identical guess gets the same state back; nothing is played twice.
    retry = game.post(url, live.to_play, json={"row": 0, "word": word})
    assert retry.status_code == 200
    assert retry.get_json() == ok.get_json()
    assert retry.headers["ETag"] == ok.headers["ETag"]
    assert len(retry.get_json()["duel"]["rows"]) == 1
    # A different word on the played row is stale, and so is an old row for the opponent.
    other = fillers("en", live.duel["word_length"])[1]
    assert_error(game.post(url, live.to_play, json={"row": 0, "word": other}), 409, "stale_row")
    assert_error(game.post(url, live.waiting, json={"row": 0, "word": word}), 409, "stale_row")
    assert_error(game.post(url, live.waiting, json={"row": 2, "word": word}), 409, "stale_row")


def test_409_intro_and_busy_players(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    r = game.post(f"/v1/tournaments/{tid}/guesses", players[0], json={"row": 0, "word": "crane"})
    assert_error(r, 409, "intro_in_progress")
    # D14: in a live tournament you cannot queue; outside a lobby you cannot leave one.
    assert_error(game.post("/v1/queue", players[0], json={"language": "en"}), 409, "in_tournament")
    assert_error(game.delete("/v1/queue", players[0]), 409, "not_in_lobby")
    group = game.post("/v1/groups", players[0], json={"language": "en"}).get_json()
    assert_error(
        game.post("/v1/groups", players[0], json={"language": "en"}), 409, "already_in_group"
    )
    assert_error(game.post(f"/v1/groups/{group['id']}/start", players[0]), 409, "members_busy")


# ---------------------------------------------------------------------------- 422


def test_r13_wrong_length_keeps_the_turn_and_its_clock(game: Game, live: Live) -> None:
    url = f"/v1/tournaments/{live.tid}/guesses"
    length = live.duel["word_length"]
    deadline = live.duel["deadline"]
    game.clock.advance(TIMING.turn_ms // 2)
    before = game.get(f"/v1/tournaments/{live.tid}/state", live.to_play)
    wrong = fillers("en", 6 if length != 6 else 5)[0]
    error = assert_error(
        game.post(url, live.to_play, json={"row": 0, "word": wrong}), 422, "wrong_length"
    )
    assert error["details"] == {"expected": length, "given": len(wrong)}
    assert_error(
        game.post(url, live.to_play, json={"row": 0, "word": "q" * length}), 422, "not_in_word_list"
    )
    assert_error(
        game.post(url, live.to_play, json={"row": 0, "word": "a1b2"}), 422, "invalid_characters"
    )
    assert_error(
        game.post(url, live.to_play, json={"row": 0, "word": "🙂" * length}),
        422,
        "invalid_characters",
    )
    after = game.get(f"/v1/tournaments/{live.tid}/state", live.to_play)
    duel = after.get_json()["duel"]
    assert duel["rows"] == [] and duel["your_turn"] and duel["deadline"] == deadline
    assert after.headers["ETag"] == before.headers["ETag"]  # nothing changed at all
    # The clock kept running: the turn still times out at the original deadline (R11).
    game.clock.set(deadline)
    duel = game.state(live.to_play, live.tid)["duel"]
    assert duel["rows"] == [{"by": live.to_play.id, "skipped": True}]


def test_422_unknown_language_and_invalid_nickname(game: Game) -> None:
    p = game.new_player()
    for language in ("xx", "EN", "", 5, None, ["en"], {"en": 1}, "en " * 100):
        assert_error(
            game.post("/v1/queue", p, json={"language": language}), 422, "unknown_language"
        )
        assert_error(
            game.post("/v1/groups", p, json={"language": language}), 422, "unknown_language"
        )
    assert_error(game.post("/v1/queue", p, json={}), 422, "unknown_language")
    for nickname in ("", "a", "x" * 200, 5, None, ["Bob"], "\u0000zero", "<script>", "!!!"):
        assert_error(
            game.call("PATCH", "/v1/me", p, json={"nickname": nickname}), 422, "invalid_nickname"
        )
    assert game.me(p)["nickname"] == p.nickname
    r = game.call("PATCH", "/v1/me", p, json={"nickname": "Renamed Player"})
    assert r.status_code == 200 and r.get_json()["nickname"] == "Renamed Player"
    assert game.me(p)["nickname"] == "Renamed Player"
