"""Races before the start, through HTTP against DynamoDB Local.

Each round, in a language of its own: seven players sit in a lobby one after another; then at one
instant five more join (one of them twice), one of the seven leaves and two ask for their queue
status, so the joiners race for the last seat. At the same instant a group's leader presses
Start twice while one member queues on their own and another leaves the group.

Afterwards nothing acknowledged is lost and the records agree with each other (R18, R19, R22, D7,
D14): every player is in at most one lobby or tournament and is where the records say; a full
lobby started exactly one tournament with exactly its seats; each lobby's seats are what its
acknowledged joins and leaves give when applied one at a time through `core.lobby`. The joiners
who find no seat open lobbies that then meet (D15): an acknowledged join holds its seat in the
lobby it was answered with or in the one that lobby moved its players into.
"""

from __future__ import annotations

from typing import Any

from api.bots.http import Http
from api.storage.records import LobbyRecord
from core import lobby as lb
from tests.races.conftest import RaceStack
from tests.races.helpers import Racer, join, new_racers

LANGUAGES = ("de", "es", "fr", "it")
JOINERS = 5
MEMBER = "/v1/groups/<gid>/members/<member>"


def _lobbies(stack: RaceStack, language: str) -> list[LobbyRecord]:
    """Every lobby of the language (a scan: the fill index lists only open ones)."""
    items = stack.repo.client.scan(TableName=stack.repo.table_name)["Items"]
    ids = [i["pk"]["S"][2:] for i in items if i["pk"]["S"].startswith("L#")]
    found = [stack.repo.get_lobby(lid) for lid in ids]
    return [r for r in found if r is not None and r.lobby.language == language]


def _join_op(stack: RaceStack, racer: Racer, language: str, acked: dict[str, str]) -> Any:
    def run(http: Http) -> int:
        reply = stack.call(http, "POST", "/v1/queue", {"language": language}, headers=racer.auth)
        if reply.status == 201:
            acked[racer.id] = reply.body["id"]
        return reply.status

    return run


def _leave_op(stack: RaceStack, racer: Racer, acked: dict[str, str]) -> Any:
    def run(http: Http) -> int:
        reply = stack.call(http, "DELETE", "/v1/queue", headers=racer.auth)
        if reply.status == 204:
            acked[racer.id] = "left"
        return reply.status

    return run


def _call_op(stack: RaceStack, racer: Racer, method: str, route: str, **kw: Any) -> Any:
    return lambda http: stack.call(http, method, route, headers=racer.auth, **kw).status


def _check_places(stack: RaceStack, language: str, everyone: list[Racer]) -> None:
    """Players and lobbies agree; a full lobby started one tournament with exactly its seats."""
    lobbies = _lobbies(stack, language)
    seated: dict[str, str] = {}
    for record in lobbies:
        for s in record.lobby.seats:
            assert s.player not in seated, f"{s.player} sits in two lobbies"
            seated[s.player] = record.id
        if record.lobby.full:
            assert record.tournament_id is not None
            t = stack.repo.get_tournament(record.tournament_id)
            assert t is not None
            assert [p.id for p in t.tournament.players] == [s.player for s in record.lobby.seats]
        else:
            assert record.tournament_id is None
    started = {r.id: r.tournament_id for r in lobbies if r.tournament_id is not None}
    for p in stack.repo.get_players([r.id for r in everyone]):
        where = seated.get(p.id)
        if where is None:
            assert p.lobby_id is None and p.tournament_id is None, p
        elif where in started:
            assert p.lobby_id is None and p.tournament_id == started[where], p
        else:
            assert p.lobby_id == where and p.tournament_id is None, p


def _replayed(first: lb.Lobby, left: str | None, final: lb.Lobby) -> lb.Lobby:
    """The lobby's first seven joins, the acknowledged leave, then the joins it ended with."""
    lobby = lb.unseat(first, left) if left is not None and first.has(left) else first
    for s in final.seats[len(lobby.seats) :]:
        lobby = lb.seat(lobby, s.player, s.rating, lobby.language, s.seen)
    return lobby


def _holding(lobbies: dict[str, LobbyRecord], lobby_id: str, player: str) -> bool:
    """Whether `player` sits in `lobby_id`, or in the lobby it moved them into (D15)."""
    for _ in range(8):
        record = lobbies[lobby_id]
        if record.lobby.has(player):
            return True
        if record.moved_to is None:
            return False
        lobby_id = record.moved_to
    return False


def _last_seat_race(stack: RaceStack, language: str) -> None:
    seven = new_racers(stack, 7)
    joiners = new_racers(stack, JOINERS)
    http = stack.client()
    for racer in seven:
        lobby_id = join(stack, http, racer, language)["id"]
    http.close()
    first = stack.repo.get_lobby(str(lobby_id))
    assert first is not None and len(first.lobby.seats) == 7
    joined: dict[str, str] = {}
    left: dict[str, str] = {}
    leaver = seven[3]
    ops: list[tuple[str, Any]] = [
        ("join", _join_op(stack, r, language, joined)) for r in [*joiners, joiners[0]]
    ]
    ops.append(("leave queue", _leave_op(stack, leaver, left)))
    ops += [("queue status", _call_op(stack, r, "GET", "/v1/queue")) for r in seven[:2]]
    stack.burst(ops)

    everyone = [*seven, *joiners]
    _check_places(stack, language, everyone)
    assert sorted(joined) == sorted(r.id for r in joiners)  # a retried join is harmless
    lobbies = {r.id: r for r in _lobbies(stack, language)}
    for player, lobby_id in joined.items():  # each acknowledged join holds its seat
        assert _holding(lobbies, lobby_id, player)
    if left:
        assert not any(r.lobby.has(leaver.id) for r in lobbies.values())
    final = lobbies[first.id].lobby
    assert _replayed(first.lobby, leaver.id if left else None, final) == final


def _group_start_race(stack: RaceStack, language: str) -> None:
    leader, stay, goes = new_racers(stack, 3)
    http = stack.client()
    group = stack.call(http, "POST", "/v1/groups", {"language": language}, headers=leader.auth)
    code = group.body["invite_code"]
    for member in (stay, goes):
        reply = stack.call(
            http, "POST", "/v1/groups/join", {"invite_code": code}, **{"headers": member.auth}
        )
        assert reply.status == 200, reply.body
    http.close()
    gid = group.body["id"]
    starts: dict[str, str] = {}

    ids = {"gid": gid, "member": goes.id}

    def start(h: Http) -> int:
        reply = stack.call(h, "POST", "/v1/groups/<gid>/start", params=ids, headers=leader.auth)
        if reply.status == 201:
            starts[f"start{len(starts)}"] = reply.body["id"]
        return reply.status

    joined: dict[str, str] = {}
    stack.burst(
        [
            ("group start", start),
            ("group start", start),
            ("join", _join_op(stack, stay, language, joined)),
            ("leave group", _call_op(stack, goes, "DELETE", MEMBER, params=ids)),
        ]
    )
    _check_places(stack, language, [leader, stay, goes])
    assert len(starts) <= 1  # a second Start finds the members seated
    group_lobbies = [r for r in _lobbies(stack, language) if r.lobby.group_id == gid]
    assert [r.id for r in group_lobbies] == list(starts.values())
    record = stack.repo.get_group(gid)
    assert record is not None
    members = set(record.group.members)
    for p in stack.repo.get_players([leader.id, stay.id, goes.id]):
        assert (p.group_id == gid) == (p.id in members), p
    if starts:
        assert record.lobby_id == group_lobbies[0].id
    if stay.id in joined:  # their own lobby, or the group's if Start seated them first
        lobby = stack.repo.get_lobby(joined[stay.id])
        assert lobby is not None and lobby.lobby.has(stay.id)


def test_r18_r19_r22_d7_joins_leaves_and_group_starts_race_consistently(
    race_stack: RaceStack,
) -> None:
    for language in LANGUAGES:
        _last_seat_race(race_stack, language)
        _group_start_race(race_stack, language)
    print(
        f"\nrace suite (lobbies): {race_stack.operations} concurrent operations; statuses "
        f"{dict(sorted(race_stack.statuses.items()))}"
    )
