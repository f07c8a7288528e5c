"""D19 end to end: whole tournaments through HTTP against DynamoDB Local, rate limits on.

- A solver client among people-like clients: `wordle-tournament fairplay --json` flags it within
  5 tournaments, and never the people-like ones.
- The audit's farm (a leader and 7 reusable puppets, created from 2 addresses, in group
  tournaments the puppets leave at once): at most +25 in total over 20 tournaments, and on no
  leaderboard.
- An honest group of 8 friends who play each other: nothing refused, nobody flagged.

Each test prints its figures (docs/benchmarks.md, "Fair play through HTTP").
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from api.service.analysis import AnalysisCache
from api.service.fairplay import judge
from api.storage.dynamodb.history_items import stats_item
from api.storage.metering.billing import item_size, write_units
from core.fairplay import record as fr
from tests.fairplay.conftest import T0, FairStack
from tests.fairplay.harness import Client, group_of, person, play, solver, start_group

SOLVER_TOURNAMENTS = 5
FARM_EVENINGS = 20
FRIENDS_EVENINGS = 5
EVENING_GAP_MS = 30_000  # between one tournament's end and the next start


def _rating(client: Client) -> int:
    me = client.call("GET", "/v1/me")
    assert me.status == 200, me.body
    rating: int = me.body["rating"]
    return rating


def _held(listing: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["player"]: e for e in listing["players"]}


def _on_boards(client: Client, stack: FairStack) -> bool:
    """Whether the player is on any leaderboard: everyone's or English, in the top or ranked."""
    stack.service.leaderboards.refresh()
    for query in ("", "?language=en"):
        public = client.http.request("GET", f"/v1/leaderboard{query}")  # no token
        mine = client.call("GET", f"/v1/leaderboard{query}")
        assert public.status == mine.status == 200
        if client.id in {x["player_id"] for x in public.body["top"]}:
            return True
        if mine.body["you"]["rank"] is not None:
            return True
    return False


def test_d19_a_solver_client_is_flagged_within_5_tournaments_and_people_never(
    fair_stack: FairStack,
) -> None:
    stack = fair_stack
    cheat = solver(stack.http("127.0.0.2"), stack.clock, seed=1)
    people = [person(stack.http("127.0.0.2"), stack.clock, seed=10 + i) for i in range(7)]
    everyone = [cheat, *people]
    for c in everyone:
        c.create()
    gid = group_of(cheat, people)
    flagged_after = None
    requests = 0
    for n in range(1, SOLVER_TOURNAMENTS + 1):  # all 5, to watch the people-like ones longer
        played = play(start_group(cheat, gid), everyone, stack.clock)
        requests += played.requests
        held = _held(stack.fairplay())
        assert not {p.id for p in people} & set(held), held  # never a people-like client
        if cheat.id in held and flagged_after is None:
            flagged_after = n
            why = held[cheat.id]
            assert why["status"] == "flagged" and "choices" in why["reasons"], why
            assert why["tournaments"] == n and why["signals"]["all"]["judged_rows"] >= 5
        if flagged_after is not None:
            assert cheat.id in held and not _on_boards(cheat, stack)  # off every board
        stack.clock.advance(EVENING_GAP_MS)
    assert flagged_after is not None, "the solver client was not flagged within 5 tournaments"
    signals = _held(stack.fairplay())[cheat.id]["signals"]["all"]
    print(
        f"\nD19 HTTP solver: flagged after {flagged_after} tournament(s) (best word on "
        f"{signals['best']} of {signals['judged_rows']} judged rows over {SOLVER_TOURNAMENTS}); "
        f"people-like flagged 0/{len(people)} over {SOLVER_TOURNAMENTS}; {requests} game requests"
    )
    # An operator clears them: on the boards again.
    decided = stack.fairplay("clear", cheat.id, "--by", "ops-test")
    assert decided["status"] == fr.CLEARED
    assert cheat.id in _held(stack.fairplay("--status", "all"))
    assert cheat.id not in _held(stack.fairplay())  # no longer held
    stack.clock.advance(1)
    assert _on_boards(cheat, stack)


def test_d19_the_audit_farm_gains_at_most_25_in_20_tournaments_and_is_on_no_board(
    fair_stack: FairStack,
) -> None:
    stack = fair_stack
    leader = person(stack.http("127.0.0.3"), stack.clock, seed=3)
    puppets = [
        person(stack.http("127.0.0.3" if i < 3 else "127.0.0.4"), stack.clock, seed=30 + i)
        for i in range(7)
    ]
    for c in [leader, *puppets]:
        c.create()
    gid = group_of(leader, puppets)
    start = _rating(leader)
    gains, on_board = [], []
    for _ in range(FARM_EVENINGS):
        before = _rating(leader)
        tid = start_group(leader, gid)
        for p in puppets:  # the puppets leave at once, during the first intro (R20)
            left = p.call("POST", "/v1/tournaments/<tid>/leave", tid=tid)
            assert left.status == 200, left.body
        stack.clock.advance(6_000 + 1)
        state = leader.call("GET", "/v1/tournaments/<tid>/state", tid=tid).body
        assert state["phase"] == "finished"
        mine = next(p for p in state["players"] if p["id"] == leader.id)
        assert mine["place"] == 1
        gains.append(_rating(leader) - before)
        assert mine["rating_change"] == gains[-1]  # what the results show is what was applied
        on_board.append(_on_boards(leader, stack))
        stack.clock.advance(1_000)
    total = _rating(leader) - start
    assert total == sum(gains) <= 25
    assert not any(on_board)
    held = _held(stack.fairplay())
    assert held[leader.id]["reasons"] == ["farm"]
    assert "rating points refused" in held[leader.id]["why"][-1]["detail"]
    confirmed = stack.fairplay("confirm", leader.id, "--by", "ops-test")  # an operator decides
    assert confirmed["status"] == fr.CONFIRMED and confirmed["by"] == "ops-test"
    assert _held(stack.fairplay())[leader.id]["status"] == fr.CONFIRMED
    assert not _on_boards(leader, stack)
    waits = sum(c.waited for c in [leader, *puppets])
    print(
        f"\nD19 HTTP farm: {FARM_EVENINGS} tournaments, leader {total:+d} in total (gains "
        f"{gains}), on a leaderboard after {sum(on_board)} of them; {waits} answers 429 waited "
        f"out; {(stack.clock.ms - T0) // 1000} s of game time"
    )


def test_d19_honest_friends_who_play_each_other_lose_nothing(fair_stack: FairStack) -> None:
    stack = fair_stack
    friends = [person(stack.http("127.0.0.5"), stack.clock, seed=50 + i) for i in range(8)]
    for c in friends:
        c.create()
    gid = group_of(friends[0], friends[1:])
    own = {c.id: 0 for c in friends}
    for _ in range(FRIENDS_EVENINGS):
        played = play(start_group(friends[0], gid), friends, stack.clock)
        record = stack.repo.get_tournament(played.tournament_id)
        assert record is not None and record.rating_changes == {}  # nothing refused
        for p in played.state["players"]:
            change = record.tournament.player(p["id"]).rating_change
            assert change is not None and p["rating_change"] == change
            own[p["id"]] += change
        stack.clock.advance(EVENING_GAP_MS)
    changes = {c.id: _rating(c) - 1000 for c in friends}
    assert changes == own  # exactly R15–R17's
    assert not _held(stack.fairplay())
    print(
        f"\nD19 HTTP friends: {FRIENDS_EVENINGS} tournaments, changes {sorted(changes.values())}"
        " (R15–R17's exactly), nobody flagged"
    )
    _print_costs(stack, played.tournament_id, friends)


def _print_costs(stack: FairStack, tid: str, clients: list[Client]) -> None:
    """What fair play adds per tournament, measured on the last one: the CPU of judging every
    place (each duel analysed once, none cached), and the statistics items' extra bytes."""
    record = stack.repo.get_tournament(tid)
    assert record is not None
    t = record.tournament
    stored = {s.player_id: s for s in stack.repo.get_stats([c.id for c in clients])}
    placed = stack.repo.get_players([c.id for c in clients])
    started = time.process_time()
    judge(stack.service.ctx, t, placed, stored, AnalysisCache())
    cpu_ms = (time.process_time() - started) * 1000
    sizes = [
        (
            item_size(stats_item(s, 1, "w" * 12).serialize()),
            item_size(stats_item(replace(s, fairplay=None), 1, "w" * 12).serialize()),
        )
        for s in stored.values()
    ]
    duels = sum(len(r.duels) for r in t.rounds)
    extra = [with_fp - without for with_fp, without in sizes]
    units = sum(write_units(a) - write_units(b) for a, b in sizes)
    print(
        f"D19 cost per tournament: judging 8 places {cpu_ms:.0f} ms CPU ({duels} duels analysed "
        f"once); statistics items {min(extra)}-{max(extra)} bytes larger "
        f"({min(a for a, _ in sizes)}-{max(a for a, _ in sizes)} in all), "
        f"{units:+.0f} write units over the 8"
    )
