"""D15 (players who queue together meet) and D16 (idle seats), over HTTP, with an index that
lags as DynamoDB's does: joins at the same moment cannot see each other's new lobbies."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from api.service import Service
from api.service.lobbies import SETTLE_MS
from api.storage.memory import InMemoryRepository
from api.storage.repository import Put
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, TIMING, game_for
from tests.api.game import Game, Player
from tests.api.repos import CountingRepo

LAG_MS = 300
IDLE_MS = TIMING.reconnect_ms  # D16 uses D9's window (WT_RECONNECT_SECONDS)


def lagging_game(make_app: Callable[..., Any], clock: FakeClock, lag_ms: int = LAG_MS) -> Game:
    repo = InMemoryRepository(index_lag_ms=lag_ms, clock=clock)
    return game_for(make_app(repo), clock, repo)


def service_of(game: Game) -> Service:
    svc: Service = game.client.application.extensions["service"]
    return svc


def join(game: Game, player: Player, language: str = "en") -> dict[str, Any]:
    r = game.post("/v1/queue", player, json={"language": language})
    assert r.status_code == 201, r.get_json()
    body: dict[str, Any] = r.get_json()
    return body


def set_rating(game: Game, player: Player, rating: int) -> None:
    record = game.repo.get_player(player.id)
    assert record is not None
    game.repo.commit([Put(replace(record, rating=rating))])


def tournaments_of(game: Game, players: list[Player]) -> Counter[str | None]:
    return Counter(game.me(p)["tournament_id"] for p in players)


def lobbies_of(game: Game, players: list[Player]) -> Counter[str | None]:
    return Counter(game.me(p)["lobby_id"] for p in players)


def seated(game: Game, player: Player) -> str | None:
    """The player's lobby, from storage (GET /v1/me would be a contact, D16)."""
    record = game.repo.get_player(player.id)
    assert record is not None
    return record.lobby_id


def poll_all(game: Game, players: list[Player]) -> None:
    for p in players:
        assert game.get("/v1/queue", p).status_code == 200


def like_clients(game: Game, players: list[Player], seconds: int) -> None:
    """What the clients and `make run` do: each player polls the queue once a second (spread
    over the second), the sweep runs every second."""
    step = 1_000 // len(players)
    for _ in range(seconds):
        for p in players:
            game.clock.advance(step)
            if seated(game, p) is not None:
                assert game.get("/v1/queue", p).status_code == 200
        game.clock.advance(1_000 - step * len(players))
        service_of(game).sweep()


# ---------------------------------------------------------------------------- D15


def test_d15_joins_at_the_same_moment_cannot_see_each_other_through_a_lagging_index(
    make_app: Callable[..., Any], clock: FakeClock
) -> None:
    game = lagging_game(make_app, clock)
    players = game.new_players(8)
    lobbies = {join(game, p)["id"] for p in players}  # all at the same instant
    assert len(lobbies) == 8  # as on DynamoDB without D15: eight lobbies of one


def queued_at_once(
    make_app: Callable[..., Any], clock: FakeClock, n: int
) -> tuple[Game, list[Player]]:
    """`n` players who join at the same instant, over a lagging index."""
    game = lagging_game(make_app, clock)
    players = game.new_players(n)
    for p in players:
        join(game, p)
    return game, players


def test_d15_players_who_queue_at_the_same_moment_meet_at_their_next_poll(
    make_app: Callable[..., Any], clock: FakeClock
) -> None:
    game, players = queued_at_once(make_app, clock, 8)
    clock.advance(1_000)  # the clients' first poll, once the index has caught up
    poll_all(game, players)
    [(tid, n)] = tournaments_of(game, players).items()
    assert tid is not None and n == 8  # one tournament (D7: it started with the 8th seat)


def test_d15_the_sweep_alone_gathers_them_when_nobody_polls(
    make_app: Callable[..., Any], clock: FakeClock
) -> None:
    game, players = queued_at_once(make_app, clock, 8)
    report = service_of(game).sweep()
    assert report.lobbies == 0  # nothing is due before the index has settled
    clock.advance(SETTLE_MS)
    report = service_of(game).sweep()
    assert report.lobbies >= 1 and report.moves >= 1
    clock.advance(SETTLE_MS)
    service_of(game).sweep()
    [(tid, n)] = tournaments_of(game, players).items()
    assert tid is not None and n == 8


def test_d15_twenty_four_at_the_same_moment_start_three_tournaments(
    make_app: Callable[..., Any], clock: FakeClock
) -> None:
    game, players = queued_at_once(make_app, clock, 24)
    like_clients(game, players, seconds=3)
    counts = tournaments_of(game, players)
    assert None not in counts and sorted(counts.values()) == [8, 8, 8]


def test_d15_join_writes_the_stored_lobby_not_the_stale_index_entry(
    make_app: Callable[..., Any], clock: FakeClock
) -> None:
    """The index shows an older version of the lobby: the join reads it again by key, so it
    neither fails its conditional write over and over nor overwrites a seat."""
    game = lagging_game(make_app, clock, lag_ms=60_000)
    a, b, c = game.new_players(3)
    clock.advance(0)
    first = join(game, a)
    clock.advance(60_000)  # the index now shows `first` with one seat...
    assert game.get("/v1/queue", a).status_code == 200
    assert join(game, b)["id"] == first["id"]  # ...and keeps showing it while b sits down
    assert join(game, c)["id"] == first["id"]
    seats = game.get(f"/v1/lobbies/{first['id']}", a).get_json()["seats"]
    assert [s["player_id"] for s in seats] == [a.id, b.id, c.id]


@BOTH
def test_d15_merging_never_widens_r18(game: Game) -> None:
    low, high = game.new_players(2)
    set_rating(game, high, 1401)  # with 1000: the merged rating 1200.5 is 200.5 from 1000
    first, second = join(game, low), join(game, high)
    game.clock.advance(5_000)
    poll_all(game, [low, high])
    service_of(game).sweep()
    assert (game.me(low)["lobby_id"], game.me(high)["lobby_id"]) == (first["id"], second["id"])


@BOTH
def test_d15_lobbies_meet_when_every_player_ends_within_200_of_the_merged_rating(
    game: Game,
) -> None:
    low, high = game.new_players(2)
    set_rating(game, high, 1250)  # 250 from 1000 (a join would not seat them together)...
    first = join(game, low)
    game.clock.advance(1)
    # ...but both end within 125 of the merged rating 1125: the new lobby moves into the older.
    assert join(game, high)["id"] == first["id"]
    assert game.me(low)["lobby_id"] == game.me(high)["lobby_id"] == first["id"]
    assert game.get("/v1/queue", low).get_json()["lobby"]["rating"] == 1125


@BOTH
def test_r22_d15_a_group_lobby_takes_in_the_players_waiting_nearby(game: Game) -> None:
    leader, friend, *waiting = game.new_players(5)
    for p in waiting:  # each alone: they would have merged with each other anyway
        set_rating(game, p, 1100)
    singles = [join(game, p) for p in waiting]
    assert len({s["id"] for s in singles}) == 1  # sequential joins share a lobby (D6)
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    game.post("/v1/groups/join", friend, json={"invite_code": group["invite_code"]})
    lobby = game.post(f"/v1/groups/{group['id']}/start", leader).get_json()
    # The group's lobby is younger, yet it stays and the others move in (R22: members together).
    assert lobby["group_id"] == group["id"] and len(lobby["seats"]) == 5
    assert {game.me(p)["lobby_id"] for p in [leader, friend, *waiting]} == {lobby["id"]}
    assert lobby["rating"] == 1000  # D11: still the group's rating


# ---------------------------------------------------------------------------- D16


@BOTH
def test_d16_a_silent_player_gives_up_the_seat_after_60s_at_no_cost(game: Game) -> None:
    talker, silent = game.new_players(2)
    lobby = join(game, talker)
    assert join(game, silent)["id"] == lobby["id"]
    start = game.clock.ms
    for _ in range(5):
        game.clock.advance(5_000)
        poll_all(game, [talker])
    assert seated(game, silent) == lobby["id"]  # 25 s of 30 (the tests' shorter D9 window)
    game.clock.set(start + IDLE_MS)
    poll_all(game, [talker])  # a request that reads the lobby enforces it (D10)
    assert seated(game, silent) is None
    me = game.me(silent)
    assert me["rating"] == 1000 and me["tournament_id"] is None  # R19: no penalty
    seats = game.get(f"/v1/lobbies/{lobby['id']}", talker).get_json()["seats"]
    assert [s["player_id"] for s in seats] == [talker.id]
    assert join(game, silent)["id"] == lobby["id"]  # free to queue again (D14)


def test_d16_contacts_by_queue_lobby_and_me_polls_keep_the_seat(
    make_app: Callable[..., Any], clock: FakeClock
) -> None:
    counting = CountingRepo(InMemoryRepository())
    game = game_for(make_app(counting), clock, counting)
    players = game.new_players(3)
    lobby = join(game, players[0])
    for p in players[1:]:
        join(game, p)
    polls = [
        lambda p: game.get("/v1/queue", p),
        lambda p: game.get(f"/v1/lobbies/{lobby['id']}", p),
        lambda p: game.get("/v1/me", p),
    ]
    counting.reset()
    for _ in range(40):  # 200 s, each player polling one kind of request every 5 s
        clock.advance(5_000)
        for p, poll in zip(players, polls, strict=True):
            assert poll(p).status_code == 200
        service_of(game).sweep()
    assert lobbies_of(game, players) == Counter({lobby["id"]: 3})
    touches = [args for name, args in counting.calls if name == "touch_lobby"]
    # D9's coalescing: at most one stamp per player per contact interval (a sixth of the
    # window: 5 s of the tests' 30), and no more often than the player asks.
    most = 200_000 // max(5_000, TIMING.contact_interval_ms)
    for p in players:
        assert most * 3 // 4 <= sum(1 for _, pid, _ in touches if pid == p.id) <= most


@BOTH
def test_d16_a_lobby_whose_last_player_falls_silent_closes(game: Game) -> None:
    alone = game.new_player()
    lobby = join(game, alone)
    game.clock.advance(IDLE_MS)
    report = service_of(game).sweep()
    assert report.freed == 1
    assert game.me(alone)["lobby_id"] is None
    assert game.repo.get_lobby(lobby["id"]) is None
    assert service_of(game).sweep().lobbies == 0


@BOTH
def test_d16_a_group_member_keeps_the_group(game: Game) -> None:
    leader, friend = game.new_players(2)
    group = game.post("/v1/groups", leader, json={"language": "en"}).get_json()
    game.post("/v1/groups/join", friend, json={"invite_code": group["invite_code"]})
    lobby = game.post(f"/v1/groups/{group['id']}/start", leader).get_json()
    for _ in range(IDLE_MS // 10_000):
        game.clock.advance(10_000)
        poll_all(game, [leader])
    assert game.me(friend)["lobby_id"] is None and game.me(friend)["group_id"] == group["id"]
    assert game.me(leader)["lobby_id"] == lobby["id"]
    view = game.get(f"/v1/groups/{group['id']}", leader).get_json()
    assert {m["player_id"] for m in view["members"]} == {leader.id, friend.id}


def test_d16_idle_seats_are_freed_by_the_sweep_from_stored_times(
    make_app: Callable[..., Any], clock: FakeClock
) -> None:
    """D10: the sweep frees exactly the seats whose last contact is 60 s old, whenever it
    runs; later contacts move a lobby's deadline, and it looks again then."""
    repo = InMemoryRepository()
    game = game_for(make_app(repo), clock, repo)
    a, b = game.new_players(2)
    lobby = join(game, a)
    join(game, b)
    start = clock.ms
    clock.advance(IDLE_MS // 2)
    poll_all(game, [a])  # a's contact: half a window after b's
    clock.advance(IDLE_MS // 2)
    report = service_of(game).sweep()
    assert report.freed == 1 and seated(game, b) is None
    assert seated(game, a) == lobby["id"]
    stored = repo.get_lobby(lobby["id"])
    assert stored is not None and stored.due is not None and stored.due > clock.ms
    clock.set(stored.due)
    service_of(game).sweep()
    late = repo.get_lobby(lobby["id"])
    assert late is not None and late.due == start + IDLE_MS // 2 + IDLE_MS  # a's deadline
    clock.set(late.due)
    assert service_of(game).sweep().freed == 1 and repo.get_lobby(lobby["id"]) is None
