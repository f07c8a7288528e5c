"""D19 in the service: when a place is fixed, fair play's change is the one applied and shown
everywhere (the player's rating, the history line, the statistics, the state and the public
results), the fair-play record is kept in the statistics item, a held player is on no
leaderboard and never told in public, and operators list, confirm and clear through the store.
Bots are never judged."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace

from flask import Flask

from api.config import Settings
from api.service import Service
from api.service import fairplay as service_fairplay
from api.storage.repository import Put, Repository
from core.fairplay import record as fr
from core.leaderboard import ALL, part_of
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, game_for
from tests.api.game import Game, Player

BOARD = "/v1/leaderboard"


def _group(game: Game, leader: Player, members: list[Player]) -> str:
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    for m in members:
        r = game.post("/v1/groups/join", m, json={"invite_code": group["invite_code"]})
        assert r.status_code == 200, r.get_json()
    return str(group["id"])


def _start(game: Game, leader: Player, gid: str) -> str:
    r = game.post(f"/v1/groups/{gid}/start", leader)
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["tournament_id"]
    assert isinstance(tid, str)
    return tid


def _farm_evening(game: Game, leader: Player, puppets: list[Player], gid: str) -> str:
    """The audit's farm: the puppets leave during the first intro, the leader wins."""
    tid = _start(game, leader, gid)
    for p in puppets:
        assert game.leave(p, tid).status_code == 200
    game.clock.advance(game.stored(tid).timing.intro_ms + 1)
    assert game.state(leader, tid)["phase"] == "finished"
    return tid


@BOTH
def test_d19_a_refused_farm_gain_is_gained_nowhere(game: Game, service: Service) -> None:
    leader, *puppets = game.new_players(8)
    gid = _group(game, leader, puppets)
    tid = _farm_evening(game, leader, puppets, gid)
    own = game.stored(tid).player(leader.id).rating_change  # R15–R17's, kept in the state
    assert own is not None and own > 20
    applied = game.record(tid).rating_changes
    assert applied[leader.id] == 0
    t = game.stored(tid)  # puppets who left later gain nothing from those who left first
    assert all(change < (t.player(pid).rating_change or 0) for pid, change in applied.items())
    assert game.me(leader)["rating"] == 1000
    summary = game.get(f"/v1/tournaments/{tid}/summary").get_json()
    shown = {p["id"]: p["rating_change"] for p in summary["players"]}
    assert shown[leader.id] == 0 and all(shown[p.id] < 0 for p in puppets)
    state = game.state(leader, tid)
    assert next(p for p in state["players"] if p["id"] == leader.id)["rating_change"] == 0
    for p in puppets:  # a puppet's own view of the results shows the same
        mine = game.state(p, tid)["players"]
        assert next(x for x in mine if x["id"] == leader.id)["rating_change"] == 0
    line = game.get("/v1/me/history", leader).get_json()["entries"][0]
    assert (line["rating_before"], line["rating_after"], line["rating_change"]) == (1000, 1000, 0)
    stats = game.get("/v1/me/stats", leader).get_json()
    assert [pt["rating"] for pt in stats["rating_history"]] == [1000, 1000]
    # Flagged as a farm, in the statistics item; on no board; never said in public.
    [stored] = game.repo.get_stats([leader.id])
    assert stored.fairplay is not None and stored.fairplay.status == fr.FLAGGED
    assert stored.fairplay.reasons == ("farm",) and stored.fairplay.farm.refused == own
    service.leaderboards.refresh()
    board = game.get(BOARD, leader).get_json()
    assert leader.id not in {x["player_id"] for x in board["top"]}
    assert board["you"]["rank"] is None
    # A puppet that left after three others is noticed too (they walked over below it).
    listed = [
        s.player_id for s in game.repo.get_stats([p.id for p in puppets]) if fr.listed(s.fairplay)
    ]
    assert 0 < len(listed) < 7 and board["players"] == len(listed)
    assert {x["player_id"] for x in board["top"]} == set(listed)
    for text in (
        json.dumps(summary),
        json.dumps(state),
        game.get(BOARD).get_data(as_text=True),
        json.dumps(game.me(leader)),
    ):
        assert "flag" not in text and "fair" not in text and "farm" not in text


@BOTH
def test_d19_operators_list_confirm_and_clear_through_the_store(
    game: Game, service: Service, repo: Repository
) -> None:
    leader, *puppets = game.new_players(8)
    gid = _group(game, leader, puppets)
    _farm_evening(game, leader, puppets, gid)
    store = service_fairplay.store(repo)
    listed = dict(store.records())
    everyone = repo.get_stats([p.id for p in [leader, *puppets]])
    held = {s.player_id for s in everyone if s.fairplay and s.fairplay.status != fr.OK}
    assert leader.id in listed and set(listed) == held and len(held) < 8  # the ok ones: unread
    record = listed[leader.id]
    assert store.get(leader.id) == record and store.get(puppets[0].id) is not None
    assert not store.swap(leader.id, fr.FairPlay(), record)  # not what is stored: refused
    confirmed = fr.confirm(record, "ops-ann", game.clock.ms)
    assert store.swap(leader.id, record, confirmed)
    assert not store.swap(leader.id, record, confirmed)  # it changed meanwhile
    cleared = fr.clear(confirmed, "ops-ann", game.clock.ms + 1)
    assert store.swap(leader.id, confirmed, cleared)
    assert dict(store.records())[leader.id] == cleared  # still listed for operators
    # Cleared: back on the boards (their part is read anew), their rank counted at once.
    game.clock.advance(1)
    assert game.get(BOARD, leader).get_json()["you"]["rank"] is not None
    service.leaderboards.refresh()
    assert leader.id in {x["player_id"] for x in game.get(BOARD).get_json()["top"]}


def test_d19_friends_who_play_lose_nothing_and_everyone_gets_a_record(
    game: Game, repo: Repository
) -> None:
    players = game.new_players(8)
    gid = _group(game, players[0], players[1:])
    own = {p.id: 0 for p in players}
    for _ in range(2):
        tid = _start(game, players[0], gid)
        game.play_to_end(tid, players)
        record = game.record(tid)
        assert record.rating_changes == {}  # every change was R15–R17's own
        summary = game.get(f"/v1/tournaments/{tid}/summary").get_json()
        for p in summary["players"]:
            change = record.tournament.player(p["id"]).rating_change
            assert change is not None and p["rating_change"] == change
            own[p["id"]] += change
        game.clock.advance(60_000)
    for s in repo.get_stats([p.id for p in players]):
        assert s.fairplay is not None and s.fairplay.tournaments == 2
        assert s.fairplay.status == fr.OK and s.fairplay.farm.refused == 0
    assert {p.id: game.me(p)["rating"] - 1000 for p in players} == own


def test_d19_bots_are_never_judged(
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
            environ_base={"REMOTE_ADDR": f"10.8.0.{i}"},
        )
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        bots.append(Player(body["id"], body["token"], body["nickname"]))
    tid = game.queue(bots)
    game.play_to_end(tid, bots)
    found = repo.get_stats([b.id for b in bots])
    assert len(found) == 8 and all(s.fairplay is None for s in found)
    board = repo.get_board(ALL)
    assert board is None or all(line.player_id not in {b.id for b in bots} for line in board.top)


def test_d19_a_player_held_after_their_part_was_read_is_off_the_next_snapshot(
    game: Game, service: Service, repo: Repository
) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    game.play_to_end(tid, players)
    service.leaderboards.refresh()  # every part read
    listed = game.get(BOARD).get_json()
    assert listed["players"] == 8
    # Flag one whose part the next refresh does not read again (it renews the stalest only).
    target = next(p for p in players if part_of(p.id) != 0)  # all as old: part 0 goes first
    [s] = repo.get_stats([target.id])
    assert s.fairplay is not None
    flagged = replace(s.fairplay, status=fr.FLAGGED, status_at=game.clock.ms, reasons=("choices",))
    repo.commit([Put(replace(s, fairplay=flagged))])
    game.clock.advance(1_000)
    service.leaderboards.refresh(budget_s=0)
    parts = repo.get_parts()
    assert target.id in {x.player_id for x in parts[part_of(target.id)][ALL].top}  # stale part
    board = game.get(BOARD).get_json()
    assert target.id not in {x["player_id"] for x in board["top"]}
    assert board["players"] == 7 and len(board["top"]) == 7
