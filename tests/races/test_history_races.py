"""Players' history and statistics under concurrency, through HTTP against DynamoDB Local
(R16, R25).

Tournaments are played by the bursts of the tournament race suite (every move sent at once,
retries, polls, sweeps, leaves); into every burst go reads of each player's history, statistics
and leaderboard, the public summaries, a leaderboard refresh, and renames of players whose
places are being fixed at that instant (a rename rewrites the statistics too). At the end each
placed player has exactly one history line per tournament, statistics that count it once and
agree with their record (rating, nickname), and nobody unplaced has a line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.bots.http import Http
from api.service.tournaments import with_contacts
from tests.races.conftest import TIMING, RaceStack
from tests.races.test_tournament_races import Race, _new_race, _plan

TOURNAMENTS = 2
MAX_BURSTS = 120
Operation = tuple[str, Callable[[Http], Any]]


def _read(stack: RaceStack, race: Race, player: str, route: str) -> Operation:
    def run(http: Http) -> int:
        reply = stack.call(http, "GET", route, params=race.params, headers=race.auth(player))
        return reply.status

    return ("read", run)


def _rename(stack: RaceStack, race: Race, player: str, name: str) -> Operation:
    def run(http: Http) -> int:
        body = {"nickname": name}
        return stack.call(http, "PATCH", "/v1/me", body, headers=race.auth(player)).status

    return ("rename", run)


def _records_plan(stack: RaceStack, race: Race, burst: int) -> list[Operation]:
    rng = stack.rng
    ops: list[Operation] = []
    for racer in race.racers:
        route = rng.choice(["/v1/me/history", "/v1/me/stats", "/v1/leaderboard"])
        ops.append(_read(stack, race, racer.id, route))
    ops.append(_read(stack, race, race.racers[0].id, "/v1/tournaments/<tid>/summary"))
    for racer in rng.sample(race.racers, 2):
        ops.append(_rename(stack, race, racer.id, f"Racer{burst}x{rng.randrange(1000)}"))
    ops.append(("refresh", lambda http: stack.service.refresh_leaderboards()))
    return ops


def test_r16_r25_records_are_written_once_under_concurrency(race_stack: RaceStack) -> None:
    stack = race_stack
    races = [_new_race(stack) for _ in range(TOURNAMENTS)]
    stack.clock.advance(TIMING.intro_ms)
    bursts = 0
    while bursts < MAX_BURSTS:
        ops = []
        for race in races:
            game_ops = _plan(stack, race)
            if game_ops:
                ops += game_ops + _records_plan(stack, race, bursts)
        if not ops:
            break
        stack.burst(ops)
        bursts += 1
        stack.clock.advance(stack.rng.choice([400, 1_000, 2_500, TIMING.turn_ms + 1]))

    finished = 0
    for race in races:
        record = stack.repo.get_tournament(race.tid)
        assert record is not None
        t = with_contacts(record)
        finished += t.finished
        ids = [r.id for r in race.racers]
        players = {p.id: p for p in stack.repo.get_players(ids)}
        stats = {s.player_id: s.stats for s in stack.repo.get_stats(ids)}
        for p in t.players:
            lines = stack.repo.history(p.id, 10)
            if p.place is None:
                assert lines == [] and p.id not in stats
                continue
            [line] = lines  # exactly once
            assert line.result.tournament_id == race.tid and line.result.place == p.place
            stored = players[p.id]
            assert stored.rating == 1000 + (p.rating_change or 0) == line.result.rating_after
            mine = stats[p.id]
            assert mine.played == 1 and mine.rating == stored.rating
            assert mine.nickname == stored.nickname  # renames raced the place: both agree
    renamed = sum(v for k, v in stack.statuses.items() if k.startswith("PATCH /v1/me 200"))
    print(
        f"\nrace suite (records): {stack.operations} concurrent operations in {bursts} bursts, "
        f"{finished} of {len(races)} tournaments finished, {renamed} renames"
    )
    assert finished >= 1 and renamed > 10
