"""Over HTTP: where a player is (on every authenticated read, D14, R22), every live duel of the
round in the state (R9, D4), provisional places (R9, D1), the history of the rounds played, and
the final board of the duel a guess ended."""

from __future__ import annotations

import json
from typing import Any

from tests.api.checks import assert_free_to_queue
from tests.api.conftest import BOTH
from tests.api.game import Game, Player, winning_sometimes
from tests.api.words import fillers


def by_id(state: dict[str, Any], who: Player) -> dict[str, Any]:
    return next(p for p in state["players"] if p["id"] == who.id)


def where_header(response: Any) -> dict[str, Any]:
    return json.loads(response.headers["Where"])


def state_url(tid: str) -> str:
    return f"/v1/tournaments/{tid}/state"


# ---------------------------------------------------------------------------- where


@BOTH
def test_d14_where_frees_a_player_who_left_at_once_on_every_read(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    leaver, other = players[0], players[1]
    me = game.get("/v1/me", leaver)
    playing = {"lobby_id": None, "tournament_id": tid, "group_id": None, "last_tournament_id": tid}
    assert me.get_json()["where"] == where_header(me) == playing
    before = game.get(state_url(tid), leaver)
    assert before.get_json()["where"] == where_header(before) == playing
    game.clock.advance(game.state(leaver, tid)["phase_deadline"] - game.clock.ms)
    left = game.leave(leaver, tid)
    free = {**playing, "tournament_id": None}
    # The answer to the leave, the state and the profile all say so at once, though the
    # round (and so the leaver's place, R8) is not over.
    assert left.get_json()["where"] == free
    assert by_id(left.get_json(), leaver)["place"] is None
    assert game.get("/v1/me", leaver).get_json()["where"] == free
    assert game.get(state_url(tid), leaver).get_json()["where"] == free
    assert game.get("/v1/me", other).get_json()["where"] == playing
    assert_free_to_queue(game, [leaver])  # D14
    # Writes carry no Where header (their record was read before they changed it).
    r = game.post("/v1/queue", leaver, json={"language": "en"})
    assert r.status_code == 201 and "Where" not in r.headers
    assert where_header(game.get("/v1/queue", leaver))["lobby_id"] == r.get_json()["id"]


def test_r22_a_group_start_reaches_a_member_still_polling_the_old_tournament(game: Game) -> None:
    """Bug: a member left on the old tournament's screen did not notice that the leader seated
    them in a new one. Their poll of the old state says so at once, 304 or not."""
    leader, member = game.new_players(2)
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    game.post("/v1/groups/join", member, json={"invite_code": group["invite_code"]})
    game.post(f"/v1/groups/{group['id']}/start", leader)
    strangers = game.new_players(6)
    first = game.queue(strangers)
    game.clock.advance(game.state(leader, first)["phase_deadline"] - game.clock.ms)
    for p in (leader, member):  # both out (R20): free at once (D14), the round goes on
        assert game.leave(p, first).status_code == 200
    old = game.get(state_url(first), member)
    etag = old.headers["ETag"]
    assert game.get(state_url(first), member, headers={"If-None-Match": etag}).status_code == 304

    lobby = game.post(f"/v1/groups/{group['id']}/start", leader).get_json()
    seated = game.get(state_url(first), member, headers={"If-None-Match": etag})
    assert seated.status_code == 200
    assert seated.get_json()["where"]["lobby_id"] == lobby["id"] == where_header(seated)["lobby_id"]
    etag = seated.headers["ETag"]
    second = game.queue(game.new_players(6))  # strangers fill the group's lobby
    moved = game.get(state_url(first), member, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and second != first
    assert moved.get_json()["where"]["tournament_id"] == second
    assert moved.get_json()["id"] == first  # still the old tournament's state, to watch
    assert game.me(member)["where"]["tournament_id"] == second


# ---------------------------------------------------------------------------- R9, D1


def test_r9_d1_an_eliminated_player_sees_the_rating_change_at_once_marked_provisional(
    game: Game,
) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    out = players[0]
    game.clock.advance(game.state(out, tid)["phase_deadline"] - game.clock.ms)
    seen = by_id(game.leave(out, tid).get_json(), out)
    assert (seen["status"], seen["place"], seen["rating_change"]) == ("left", None, None)
    assert seen["provisional"] == {"place": 8, "rating_change": -25}  # R17: alone last
    assert seen["rating"] == 1000 and seen["out_round"] == 1
    assert game.me(out)["rating"] == 1000  # R16: applied when the place is fixed
    rest = [p for p in players if p is not out]
    game.play_to_end(tid, rest, until=lambda: game.state(out, tid)["round"] > 1)
    fixed = by_id(game.state(out, tid), out)
    assert (fixed["place"], fixed["rating_change"], fixed["provisional"]) == (8, -25, None)
    assert game.me(out)["rating"] == 975


# ---------------------------------------------------------------------------- live duels


def test_r9_d4_the_state_shows_every_live_duel_at_a_glance(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    game.clock.advance(game.state(players[0], tid)["phase_deadline"] - game.clock.ms)
    st = game.state(players[0], tid)
    for d in st["duels"]:  # one guess in every duel
        who = next(p for p in players if p.id == d["to_play"])
        assert game.guess(who, tid, 0, fillers("en", d["word_length"])[0]).status_code == 200
    game.clock.advance(500)
    st = game.state(players[0], tid)
    assert len(st["duels"]) == 4
    for glance in st["duels"]:
        full = game.get(f"/v1/tournaments/{tid}/duels/{glance['id']}", players[0]).get_json()
        assert glance["board"] == [[r["tiles"], r["marks"]] for r in full["rows"]]
        assert glance["to_play"] == full["to_play"] == glance["players"][1]
        assert glance["deadline"] == full["deadline"]
        assert "secret" not in glance and glance["result"] is None


# ---------------------------------------------------------------------------- history


@BOTH
def test_d2_d4_history_of_the_rounds_played_with_final_boards(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    url = f"/v1/tournaments/{tid}/history"
    empty = game.get(url, players[0])
    assert empty.status_code == 200 and empty.get_json() == {"id": tid, "rounds": []}
    assert empty.headers["ETag"] == '"h0"'
    assert game.get(url, players[0], headers={"If-None-Match": '"h0"'}).status_code == 304
    assert game.get(url, game.new_player()).status_code == 403
    assert game.get("/v1/tournaments/t_nope/history", players[0]).status_code == 404
    final = game.play_to_end(tid, players, winning_sometimes(0.5, game.rng))
    assert final is not None and final["history_rounds"] == final["round"]
    r = game.get(url, players[3], headers={"If-None-Match": '"h0"'})
    assert r.status_code == 200 and r.headers["ETag"] == f'"h{final["round"]}"'
    history = r.get_json()
    stored = game.stored(tid)
    assert [x["number"] for x in history["rounds"]] == [x.number for x in stored.rounds]
    for shown, rnd in zip(history["rounds"], stored.rounds, strict=True):
        assert shown["bye"] == rnd.bye
        assert [d["secret"] for d in shown["duels"]] == [list(d.secret) for d in rnd.duels]
        assert [len(d["board"]) for d in shown["duels"]] == [len(d.turns) for d in rnd.duels]
    outs = [pid for x in history["rounds"] for pid in x["out"]]
    assert sorted(outs) == sorted(p["id"] for p in final["players"] if p["lives"] == 0)


# ---------------------------------------------------------------------------- ended duel


def test_d4_the_guess_that_ends_the_round_answers_with_that_duels_final_board(
    game: Game,
) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    game.clock.advance(game.state(players[0], tid)["phase_deadline"] - game.clock.ms)
    by = {p.id: p for p in players}
    duels = game.state(players[0], tid)["duels"]
    for d in duels[1:]:  # every duel but the first ends: its winner's guess says so
        who = by[d["to_play"]]
        r = game.guess(who, tid, 0, game.secret_text(tid, d["id"]))
        ended = r.get_json()["ended_duel"]
        assert ended["id"] == d["id"] and ended["secret"] == list(game.duel(tid, d["id"]).secret)
        assert r.get_json()["round"] == 1
    last = duels[0]
    loser = by[last["to_play"]]
    wrong = game.guess(loser, tid, 0, fillers("en", last["word_length"])[0]).get_json()
    assert "ended_duel" not in wrong
    winner = by[last["players"][1]]
    body = {"row": 1, "word": game.secret_text(tid, last["id"]), "duel": last["id"]}
    r = game.post(f"/v1/tournaments/{tid}/guesses", winner, json=body)
    answer = r.get_json()
    assert answer["round"] == 2 and answer["phase"] == "intro"  # the next round began...
    ended = answer["ended_duel"]  # ...and the duel this guess ended is in the answer
    assert ended["id"] == last["id"] and ended["result"]["winner"] == winner.id
    assert ended["secret"] == list(game.duel(tid, last["id"]).secret)
    assert [r["tiles"] for r in ended["rows"]][-1] == ended["secret"]
    retry = game.post(f"/v1/tournaments/{tid}/guesses", winner, json=body)
    assert retry.status_code == 200 and retry.get_json()["ended_duel"] == ended
