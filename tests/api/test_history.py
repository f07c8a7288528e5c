"""Over HTTP: a player's history and statistics, a tournament's public summary and the
leaderboards, each compared with the tournaments that were played (R8, R12, R14, R15, R16,
R20, D1, D4, D8)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.config import Settings
from api.service import Service
from api.service.leaderboards import REFRESH_MS
from api.storage.repository import Repository
from core.leaderboard import ALL, PARTS
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, game_for
from tests.api.game import JSON, Game, Player, winning_sometimes
from tests.api.leaks import leaks

ALL_BOARD = "/v1/leaderboard"


def summary(client: FlaskClient, tid: str, **kw: Any) -> Any:
    return client.get(f"/v1/tournaments/{tid}/summary", **kw)


def expected_lines(summary_body: JSON) -> dict[str, JSON]:
    """What each player's history line must say, worked out from the public summary alone:
    their duels in the rounds they played, and the rating from the start (all at 1000)."""
    lines = {}
    for p in summary_body["players"]:
        won = drawn = lost = 0
        turns: list[int] = []
        for rnd in summary_body["rounds"][: p["rounds_played"]]:
            for d in rnd["duels"]:
                if p["id"] not in d["players"]:
                    continue
                result = d["result"]
                if result["winner"] is None:
                    drawn += 1
                elif result["winner"] == p["id"]:
                    won += 1
                    if result["kind"] == "win":  # R11: rows alternate, skips count
                        mine = d["players"].index(p["id"])
                        turns.append(sum(1 for i in range(len(d["board"])) if i % 2 == mine))
                else:
                    lost += 1
        lines[p["id"]] = {
            "place": p["place"],
            "rating_change": p["rating_change"],
            "rounds_played": p["rounds_played"],
            "duels": {"won": won, "drawn": drawn, "lost": lost},
            "left": p["left"],
            "turns": turns,
        }
    return lines


def play_one(game: Game, players: Sequence[Player], language: str = "en") -> tuple[str, JSON]:
    tid = game.queue(players, language)
    game.play_to_end(tid, players, winning_sometimes(0.35, game.rng))
    r = summary(game.client, tid)
    assert r.status_code == 200, r.get_json()
    return tid, r.get_json()


def refresh_boards(game: Game, service: Service) -> None:
    game.clock.advance(REFRESH_MS)
    assert service.refresh_leaderboards() == 14  # everyone's and the 13 languages'


@BOTH
def test_r8_r16_history_stats_summary_and_rank_match_the_tournament_played(
    game: Game, service: Service
) -> None:
    players = game.new_players(8)
    tid, body = play_one(game, players)
    t = game.stored(tid)
    assert body["id"] == tid and body["finished_at"] == t.finished_at
    expected = expected_lines(body)
    ratings = {}
    for p in players:
        me = game.me(p)
        ratings[p.id] = me["rating"]
        want = expected[p.id]
        page = game.get("/v1/me/history", p).get_json()
        assert page["next_cursor"] is None
        [line] = page["entries"]
        assert line["tournament_id"] == tid and line["language"] == "en"
        assert line["started_at"] == t.created_at
        stored = t.player(p.id)
        assert line["finished_at"] == t.rounds[stored.out_round - 1].ended_at  # type: ignore[operator]
        assert line["rating_before"] == 1000 and line["rating_after"] == me["rating"]
        for key in ("place", "rating_change", "rounds_played", "duels", "left"):
            assert line[key] == want[key], (p.name, key)
        stats = game.get("/v1/me/stats", p).get_json()
        won = want["place"] == 1
        assert stats["tournaments_played"] == 1 and stats["rating"] == me["rating"]
        assert stats["wins"] == int(won) and stats["podiums"] == int(want["place"] <= 3)
        assert stats["average_place"] == want["place"]
        assert stats["win_streak"] == {"current": int(won), "best": int(won)}
        assert stats["duels"] == want["duels"]
        assert stats["guesses"] == [want["turns"].count(n) for n in range(1, 7)]
        assert stats["rating_history"] == [
            {"at": t.created_at, "rating": 1000},
            {"at": line["finished_at"], "rating": me["rating"]},
        ]
        assert stats["languages"] == {"en": line["finished_at"]}
    # The leaderboard: everyone, by rating (R15), ranks shared by equal ratings (D1).
    for url in (ALL_BOARD, f"{ALL_BOARD}?language=en"):
        board = game.get(url).get_json()
        assert board["players"] == 8 and len(board["top"]) == 8
        assert [x["rating"] for x in board["top"]] == sorted(ratings.values(), reverse=True)
        for x in board["top"]:
            assert x["rating"] == ratings[x["player_id"]]
            assert x["rank"] == 1 + sum(r > x["rating"] for r in ratings.values())
        for p in players:
            mine = game.get(url, p).get_json()["you"]
            assert mine["rank"] == 1 + sum(r > ratings[p.id] for r in ratings.values())
            assert mine["rating"] == ratings[p.id] and mine["player_id"] == p.id
    german = game.get(f"{ALL_BOARD}?language=de", players[0]).get_json()
    assert german["top"] == [] and german["players"] == 0 and german["you"]["rank"] is None
    # The public summary speaks for the state every player saw at the end.
    final = game.state(players[0], tid)
    for seen in final["players"]:
        listed = next(x for x in body["players"] if x["id"] == seen["id"])
        for key in ("nickname", "place", "rating_change", "rating", "out_round"):
            assert listed[key] == seen[key]
    assert [x["place"] for x in body["players"]] == sorted(x["place"] for x in body["players"])
    history = game.get(f"/v1/tournaments/{tid}/history", players[0]).get_json()
    assert body["rounds"] == history["rounds"] and body["rounds_played"] == len(t.rounds)


def test_d4_the_summary_is_public_only_once_finished_and_cacheable(
    game: Game, client: FlaskClient
) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    early = summary(client, tid)
    assert early.status_code == 404 and early.get_json()["error"]["code"] == "not_finished"
    assert early.headers["Cache-Control"] == "no-store"
    for d in game.stored(tid).round.duels:  # D4: no secret before its duel ends
        assert leaks(early.get_data(), d.secret) == []
    assert summary(client, "t_0123456789abcdef").get_json()["error"]["code"] == "not_found"
    assert summary(client, "nope").status_code == 404
    game.play_to_end(tid, players)
    done = summary(client, tid)
    assert done.status_code == 200 and "Where" not in done.headers
    assert done.headers["Cache-Control"] == "public, max-age=86400"
    etag = done.headers["ETag"]
    again = summary(client, tid, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag
    assert summary(client, tid).get_data() == done.get_data()  # it never changes
    duels = [d for r in done.get_json()["rounds"] for d in r["duels"]]
    assert duels and all(d["secret"] for d in duels)


def test_r16_history_pages_and_stats_add_up_over_several_tournaments(
    game: Game, service: Service
) -> None:
    players = game.new_players(8)
    played: list[tuple[str, JSON]] = []
    for language in ("en", "de", "en"):
        played.append(play_one(game, players, language))
    me = players[3]
    lines: list[JSON] = []
    cursor = None
    pages = 0
    while True:
        url = "/v1/me/history?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = game.get(url, me).get_json()
        lines += page["entries"]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert pages == 2 and [x["tournament_id"] for x in lines] == [t for t, _ in reversed(played)]
    assert [x["language"] for x in lines] == ["en", "de", "en"]
    for older, newer in zip(lines[1:], lines, strict=False):  # R16: one rating after another
        assert newer["rating_before"] == older["rating_after"]
    assert lines[-1]["rating_before"] == 1000 and lines[0]["rating_after"] == game.me(me)["rating"]
    places = [expected_lines(body)[me.id]["place"] for _, body in played]
    stats = game.get("/v1/me/stats", me).get_json()
    assert stats["tournaments_played"] == 3 and stats["wins"] == places.count(1)
    assert stats["average_place"] == round(sum(places) / 3, 2)
    streak = best = 0
    for place in places:
        streak = streak + 1 if place == 1 else 0
        best = max(best, streak)
    assert stats["win_streak"] == {"current": streak, "best": best}
    assert [x["rating"] for x in stats["rating_history"]] == [1000] + [
        x["rating_after"] for x in reversed(lines)
    ]
    assert set(stats["languages"]) == {"en", "de"}
    refresh_boards(game, service)
    german = game.get(f"{ALL_BOARD}?language=de", me).get_json()
    assert german["players"] == 8 and german["you"]["rank"] is not None


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("?cursor=abc", 422),
        ("?cursor=" + "A" * 80, 422),
        ("?limit=0", 400),
        ("?limit=x", 400),
        ("?page=2", 400),
    ],
)
def test_a_cursor_it_did_not_make_is_a_422_and_a_bad_page_size_a_400(
    game: Game, query: str, status: int
) -> None:
    p = game.new_player()
    r = game.get(f"/v1/me/history{query}", p)
    assert r.status_code == status, r.get_json()
    assert r.get_json()["error"]["code"] == {400: "malformed", 422: "invalid"}[status]


def test_a_new_player_has_an_empty_record_and_no_rank(game: Game) -> None:
    p = game.new_player()
    assert game.get("/v1/me/history", p).get_json() == {"entries": [], "next_cursor": None}
    stats = game.get("/v1/me/stats", p).get_json()
    assert stats["tournaments_played"] == 0 and stats["average_place"] is None
    assert stats["guesses"] == [0] * 6 and stats["rating_history"] == []
    board = game.get(ALL_BOARD, p).get_json()
    assert board["you"]["rank"] is None and board["players"] == 0
    assert game.get("/v1/me/stats").status_code == 401
    assert game.get("/v1/me/history").status_code == 401
    bad = game.get(ALL_BOARD, headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401  # a token that is sent must work
    assert game.get(f"{ALL_BOARD}?language=xx").get_json()["error"]["code"] == "unknown_language"


def test_r15_the_leaderboard_follows_the_snapshot_and_the_rank_the_rating_now(
    game: Game, service: Service
) -> None:
    players = game.new_players(8)
    play_one(game, players)
    first = game.get(ALL_BOARD)
    assert first.headers["Cache-Control"] == "public, max-age=30"
    etag = first.headers["ETag"]
    assert game.get(ALL_BOARD, headers={"If-None-Match": etag}).status_code == 304
    # A rename reaches the board with its next snapshot (R25).
    renamed = players[0]
    assert game.call("PATCH", "/v1/me", renamed, json={"nickname": "Renamed9"}).status_code == 200
    _, body = play_one(game, players)  # a second tournament moves every rating
    ratings = {p.id: game.me(p)["rating"] for p in players}
    stale = game.get(ALL_BOARD).get_json()
    assert stale["as_of"] == first.get_json()["as_of"]  # the snapshot of a moment ago
    for p in players:  # but my own rank: my rating now against the others' then, never myself
        mine = game.get(ALL_BOARD, p).get_json()["you"]
        then = {x["player_id"]: x["rating"] for x in stale["top"] if x["player_id"] != p.id}
        assert mine["rank"] == 1 + sum(r > ratings[p.id] for r in then.values())
    refresh_boards(game, service)
    fresh = game.get(ALL_BOARD)
    assert fresh.headers["ETag"] != etag
    listed = {x["player_id"]: x for x in fresh.get_json()["top"]}
    assert {pid: x["rating"] for pid, x in listed.items()} == ratings
    assert listed[renamed.id]["nickname"] == "Renamed9"
    assert game.get(ALL_BOARD, headers={"If-None-Match": etag}).status_code == 200
    assert body["players"]


def test_bots_have_a_record_but_no_place_on_the_boards(
    make_app: Callable[..., Flask], repo: Repository, clock: FakeClock, settings: Settings
) -> None:
    app = make_app(repo, settings=replace(settings, bot_key="k"))
    game = game_for(app, clock, repo)
    bots = []
    for i in range(8):
        r = game.post(
            "/v1/players",
            json={"bot": True},
            headers={"X-Bot-Key": "k"},
            environ_base={"REMOTE_ADDR": f"10.9.0.{i}"},
        )
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        bots.append(Player(body["id"], body["token"], body["nickname"]))
    play_one(game, bots)
    assert game.get("/v1/me/stats", bots[0]).get_json()["tournaments_played"] == 1
    assert len(game.get("/v1/me/history", bots[0]).get_json()["entries"]) == 1
    board = game.get(ALL_BOARD, bots[0]).get_json()
    assert board["players"] == 0 and board["you"]["rank"] is None


def test_r15_a_refresh_renews_the_stalest_parts_within_its_budget(
    game: Game, service: Service, repo: Repository
) -> None:
    players = game.new_players(8)
    play_one(game, players)
    boards = service.leaderboards
    start = game.clock.ms
    boards.refresh(budget_s=0)  # no part yet: it reads them all
    assert {max(b.as_of for b in p.values()) for p in repo.get_parts().values()} == {start}
    for i in range(1, PARTS + 1):
        game.clock.advance(1_000)
        boards.refresh(budget_s=0)  # then one part a refresh, the stalest
        times = sorted(max(b.as_of for b in p.values()) for p in repo.get_parts().values())
        assert times == sorted([start] * (PARTS - i) + [start + 1_000 * k for k in range(1, i + 1)])
        snapshot = repo.get_board(ALL)
        assert snapshot is not None and snapshot.players == 8
        assert snapshot.as_of == min(times) and sorted(snapshot.parts_as_of) == times
    ratings = {p.id: game.me(p)["rating"] for p in players}
    mine = game.get(ALL_BOARD, players[2]).get_json()["you"]
    assert mine["rank"] == 1 + sum(r > ratings[players[2].id] for r in ratings.values())


def test_d10_a_tournament_finished_by_time_alone_has_its_summary_at_once(
    make_app: Callable[..., Flask], repo: Repository, clock: FakeClock, settings: Settings
) -> None:
    """Everyone fell silent and nobody polls (D9, D10): the tournament is over by the clock
    before anything saved it; its summary says so, and the places it fixed are recorded.
    (Without the outage watch: an hour with no request at all would count as an outage.)"""
    app = make_app(repo, settings=replace(settings, outage_gap_ms=0))
    game = game_for(app, clock, repo)
    players = game.new_players(8)
    tid = game.queue(players)
    assert summary(game.client, tid).status_code == 404
    game.clock.advance(3_600_000)  # long past every window
    r = summary(game.client, tid)
    assert r.status_code == 200, r.get_json()
    assert all(p["left"] for p in r.get_json()["players"])
    assert game.get("/v1/me/stats", players[0]).get_json()["tournaments_played"] == 1
