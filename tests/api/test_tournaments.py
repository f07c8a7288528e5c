"""Whole 8-player tournaments over HTTP, from the queue to everyone's rating change.

R1, R2, R5–R9, R15–R17, R20–R22, D1, D5, D7–D9, D14.
"""

from __future__ import annotations

import random

from tests.api.checks import assert_final, assert_free_to_queue
from tests.api.conftest import BOTH, TIMING
from tests.api.game import START_RATING, Game, Player, Strategy, winning_sometimes
from tests.api.words import fillers


def by_id(state: dict, who: Player | str) -> dict:
    pid = who if isinstance(who, str) else who.id
    return next(p for p in state["players"] if p["id"] == pid)


# ---------------------------------------------------------------------------- (1) plain


@BOTH
def test_r1_plain_tournament_from_queue_to_ratings(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    # D7: round 1's intro is the countdown; R1: 8 players with 3 lives.
    first = game.state(players[0], tid)
    assert first["phase"] == "intro" and first["round"] == 1
    assert len(first["players"]) == 8 and all(p["lives"] == 3 for p in first["players"])
    assert first["phase_deadline"] == game.clock.ms + TIMING.intro_ms
    # R2: 4 duels pair all 8 players.
    assert sorted(pid for pair in first["pairings"] for pid in pair) == sorted(
        p.id for p in players
    )
    final = game.play_to_end(tid, players, winning_sometimes(0.6, random.Random(1)))
    assert final is not None
    assert_final(game, tid, players, final)
    assert_free_to_queue(game, players)


def test_r9_r16_d14_rating_applied_as_soon_as_the_place_is_fixed(game: Game) -> None:
    """An eliminated player sees their place and rating change at once, their profile already
    carries it (applied once, not again at the end), and they may queue again while the others
    still play."""
    players = game.new_players(8)
    tid = game.queue(players)
    checked: dict[str, int] = {}

    def check_the_eliminated() -> bool:
        st = game.state(players[0], tid)
        if st["phase"] == "finished":
            return False
        for view in st["players"]:
            if view["place"] is None or view["id"] in checked:
                continue
            p = next(q for q in players if q.id == view["id"])
            assert view["lives"] == 0 and view["rating_change"] is not None
            me = game.me(p)
            assert me["rating"] == START_RATING + view["rating_change"]
            assert me["tournaments_played"] == 1 and me["tournament_id"] is None
            assert_free_to_queue(game, [p])
            own = game.state(p, tid)  # R9: they may stay and watch
            assert by_id(own, p)["place"] == view["place"]
            checked[p.id] = view["rating_change"]
        return False

    final = game.play_to_end(
        tid, players, winning_sometimes(0.5, random.Random(6)), until=check_the_eliminated
    )
    assert final is not None
    assert len(checked) >= 1  # somebody was out before the end
    for pid, change in checked.items():
        assert by_id(final, pid)["rating_change"] == change
    assert_final(game, tid, players, final)


# ---------------------------------------------------------------------------- (2) group


def test_r22_group_tournament(game: Game) -> None:
    language = "de"
    leader, *friends = game.new_players(4)
    r = game.post("/v1/groups", leader, json={"language": language})
    assert r.status_code == 201, r.get_json()
    group = r.get_json()
    gid, code = group["id"], group["invite_code"]
    assert group["leader"] == leader.id and group["language"] == language
    for f in friends:
        r = game.post("/v1/groups/join", f, json={"invite_code": code})
        assert r.status_code == 200, r.get_json()
    members = [leader, *friends]
    view = game.get(f"/v1/groups/{gid}", friends[0]).get_json()
    assert [m["player_id"] for m in view["members"]] == [m.id for m in members]

    # Only the leader starts (R22); the whole group sits in one lobby.
    assert game.post(f"/v1/groups/{gid}/start", friends[0]).status_code == 403
    r = game.post(f"/v1/groups/{gid}/start", leader)
    assert r.status_code == 201, r.get_json()
    lobby = r.get_json()
    assert lobby["group_id"] == gid and lobby["open_seats"] == 4
    assert {s["player_id"] for s in lobby["seats"]} == {m.id for m in members}
    assert lobby["tournament_id"] is None

    # Strangers in another language do not land there; strangers in its language fill it.
    other = game.new_player("en-stranger")
    r = game.post("/v1/queue", other, json={"language": "en"})
    assert r.status_code == 201 and r.get_json()["id"] != lobby["id"]
    strangers = game.new_players(4)
    tid = None
    for s in strangers:
        r = game.post("/v1/queue", s, json={"language": language})
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["id"] == lobby["id"]
        tid = r.get_json()["tournament_id"]
    assert tid is not None
    everyone = [*members, *strangers]
    state = game.state(leader, tid)
    assert state["language"] == language
    assert {p["id"] for p in state["players"]} == {p.id for p in everyone}
    view = game.get(f"/v1/groups/{gid}", leader).get_json()
    assert all(m["tournament_id"] == tid for m in view["members"])

    # While a member still plays, the leader cannot start again (R22).
    r = game.post(f"/v1/groups/{gid}/start", leader)
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "members_busy"

    final = game.play_to_end(tid, everyone, winning_sometimes(0.5, random.Random(2)))
    assert final is not None
    assert_final(game, tid, everyone, final)

    # After the tournament the members are back on the group screen; the leader starts again.
    view = game.get(f"/v1/groups/{gid}", leader).get_json()
    assert [m["player_id"] for m in view["members"]] == [m.id for m in members]
    assert all(m["tournament_id"] is None for m in view["members"])
    r = game.post(f"/v1/groups/{gid}/start", leader)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["group_id"] == gid


# ---------------------------------------------------------------------------- (3) a leaver


def test_r20_leaver_loses_at_once_and_is_placed_below_that_rounds_eliminations(
    game: Game,
) -> None:
    """R20, D8: the leaver's opponent wins at once without losing a life; the leaver is out and
    placed below everyone else eliminated in that round; leaving again costs nothing (D14)."""
    players = game.new_players(8)
    tid = game.queue(players)
    victim = players[0]  # loses every duel it plays, so it is eliminated on a known round
    rng = random.Random(5)
    random_play = winning_sometimes(0.5, rng)

    left: list[str] = []

    def last_life(g: Game, t: str) -> bool:
        """The victim is down to its last life and plays a duel this round (not a bye)."""
        stored = g.stored(t)
        in_duel = stored.round.duel_of(victim.id) is not None
        return stored.player(victim.id).lives == 1 and in_duel and not left

    def strategy(g: Game, p: Player, t: str, duel: dict) -> str | None:
        if victim.id in duel["players"]:
            # The victim never wins; its opponent wins at once, except in the round where the
            # victim is down to its last life, until the leave has happened.
            if p.id == victim.id or last_life(g, t):
                return rng.choice(fillers("en", duel["word_length"]))
            return g.secret_text(t, duel["id"])
        if last_life(g, t):  # keep every duel running until someone leaves
            return rng.choice(fillers("en", duel["word_length"]))
        return random_play(g, p, t, duel)

    chosen: dict[str, str] = {}

    def ready() -> bool:
        """The victim has 1 life and plays a duel; another duel has one row played."""
        st = game.state(victim, tid)
        me = by_id(st, victim)
        if st["phase"] != "duels" or me["lives"] != 1 or st["duel"] is None:
            return False
        if st["duel"]["result"] is not None:
            return False
        for d in st["duels"]:
            if victim.id not in d["players"] and d["result"] is None and d["rows"] >= 1:
                chosen["leaver"] = d["players"][d["rows"] % 2]  # mid-duel, on their own turn
                chosen["duel"] = d["id"]
                return True
        return False

    assert game.play_to_end(tid, players, strategy, until=ready, act_ms=100) is None
    leaver = next(p for p in players if p.id == chosen["leaver"])
    before = game.state(leaver, tid)
    opponent = next(pid for pid in before["duel"]["players"] if pid != leaver.id)
    opponent_lives = next(p["lives"] for p in before["players"] if p["id"] == opponent)
    round_number = before["round"]

    r = game.leave(leaver, tid)
    left.append(leaver.id)
    assert r.status_code == 200, r.get_json()
    after = r.get_json()
    me = by_id(after, leaver)
    assert me["status"] == "left" and me["lives"] == 0
    duel = game.get(f"/v1/tournaments/{tid}/duels/{chosen['duel']}", leaver).get_json()
    assert duel["result"]["kind"] == "forfeit" and duel["result"]["winner"] == opponent
    assert duel["result"]["at"] == game.clock.ms  # at once
    assert next(p["lives"] for p in after["players"] if p["id"] == opponent) == opponent_lives
    # D14: leaving again changes nothing; the leaver may queue again at once.
    again = game.leave(leaver, tid)
    assert again.status_code == 200 and by_id(again.get_json(), leaver) == me
    assert_free_to_queue(game, [leaver])

    remaining = [p for p in players if p.id != leaver.id]
    final = game.play_to_end(tid, remaining, strategy)
    assert final is not None
    t = game.stored(tid)
    assert t.player(victim.id).out_round == round_number
    assert t.player(leaver.id).out_round == round_number
    same_round = [p for p in t.players if p.out_round == round_number and p.id != leaver.id]
    assert victim.id in {p.id for p in same_round}
    places = {p["id"]: p["place"] for p in final["players"]}
    for p in same_round:
        assert places[p.id] < places[leaver.id]
    # D1: everyone still in at that round finished strictly better than the leaver.
    better = [p for p in t.players if p.id != leaver.id and (p.out_round or 99) >= round_number]
    assert places[leaver.id] == 1 + len(better)
    assert_final(game, tid, players, final)


# ---------------------------------------------------------------------------- (4) a disconnect


def stalling_for(silent: Player, rng: random.Random) -> Strategy:
    """Opponents of `silent` play valid words that cannot win; everyone else plays normally."""
    normal = winning_sometimes(0.5, rng)

    def strategy(g: Game, p: Player, t: str, duel: dict) -> str | None:
        if p.id == silent.id:
            return None  # never plays: every turn of theirs is skipped
        if silent.id in duel["players"]:
            return rng.choice(fillers(g.language_of(t), duel["word_length"]))
        return normal(g, p, t, duel)

    return strategy


def test_d9_r21_disconnected_player_is_treated_as_left(game: Game) -> None:
    """R21: the silent player's turns expire as skips; at last contact + WT_RECONNECT they have
    left (D9), exactly like R20: their opponent wins at once and they are placed last."""
    players = game.new_players(8)
    tid = game.queue(players)
    start = game.clock.ms
    ghost = players[3]
    strategy = stalling_for(ghost, random.Random(9))
    others = [p for p in players if p.id != ghost.id]

    # The ghost polls until 10 s in (stored at most once per contact interval: D9), then
    # never again.
    game.play_to_end(tid, players, strategy, stop_at=start + 10_000)
    game.state(ghost, tid)
    last_contact = game.stored(tid).player(ghost.id).last_contact
    assert start + 10_000 - TIMING.contact_interval_ms < last_contact <= start + 10_000
    gone_at = last_contact + TIMING.reconnect_ms

    game.play_to_end(tid, others, strategy, silent={ghost.id}, stop_at=gone_at - 1)
    st = game.state(others[0], tid)
    assert by_id(st, ghost)["status"] == "playing"
    duel = next(d for d in st["duels"] if ghost.id in d["players"])
    board = game.get(f"/v1/tournaments/{tid}/duels/{duel['id']}", others[0]).get_json()
    assert board["result"] is None
    skipped = [row for row in board["rows"] if row["by"] == ghost.id]
    assert skipped and all(row.get("skipped") for row in skipped)  # R11/R21: skips only
    assert sum(1 for row in board["rows"] if row["by"] != ghost.id and not row.get("skipped"))

    game.clock.set(gone_at)
    st = game.state(others[0], tid)
    ghost_view = by_id(st, ghost)
    assert ghost_view["status"] == "left" and ghost_view["lives"] == 0
    assert game.stored(tid).player(ghost.id).left_at == gone_at
    board = game.get(f"/v1/tournaments/{tid}/duels/{duel['id']}", others[0]).get_json()
    opponent = next(pid for pid in board["players"] if pid != ghost.id)
    assert board["result"] == {"kind": "forfeit", "winner": opponent, "at": gone_at}

    final = game.play_to_end(tid, others, strategy)
    assert final is not None
    assert by_id(final, ghost)["place"] == 8  # the only leaver of round 1
    assert by_id(final, ghost)["rating_change"] == -25
    # Coming back later changes nothing that happened (D9).
    assert by_id(game.state(ghost, tid), ghost)["status"] == "left"
    assert_final(game, tid, players, final)
    assert_free_to_queue(game, players)


def test_d9_coming_back_within_the_window_keeps_skips_but_not_the_leave(game: Game) -> None:
    players = game.new_players(8)
    tid = game.queue(players)
    start = game.clock.ms
    ghost = players[5]
    strategy = stalling_for(ghost, random.Random(4))
    others = [p for p in players if p.id != ghost.id]
    # Silent from the start (last contact: the start), back just before the window closes.
    back = start + TIMING.reconnect_ms - 1
    game.play_to_end(tid, others, strategy, silent={ghost.id}, stop_at=back)
    st = game.state(ghost, tid)
    assert by_id(st, ghost)["status"] == "playing"
    skipped = [row for row in st["duel"]["rows"] if row["by"] == ghost.id]
    assert skipped and all(row.get("skipped") for row in skipped)
    # The window now runs from the new contact: at start + window they are still in.
    game.clock.set(start + TIMING.reconnect_ms + 1)
    st = game.state(others[0], tid)
    assert by_id(st, ghost)["status"] == "playing"
    rows_now = game.state(ghost, tid)["duel"]["rows"]
    assert [row for row in rows_now if row["by"] == ghost.id][: len(skipped)] == skipped
    assert game.stored(tid).player(ghost.id).left_at is None


def test_d9_players_who_drop_at_the_same_moment_leave_together(game: Game) -> None:
    """D9: everyone silent since the start has left at start + window, all at that moment; D8:
    leavers of one round share a place; R8/D1: nobody finished better than anybody else."""
    players = game.new_players(8)
    tid = game.queue(players)
    start = game.clock.ms
    game.clock.advance(TIMING.reconnect_ms)
    st = game.state(players[0], tid)
    assert st["phase"] == "finished"
    gone = start + TIMING.reconnect_ms
    t = game.stored(tid)
    assert [(p.left_at, p.out_round) for p in t.players] == [(gone, 1)] * 8
    assert [(p["lives"], p["place"], p["rating_change"]) for p in st["players"]] == [(0, 1, 0)] * 8
    assert_final(game, tid, players, st)
