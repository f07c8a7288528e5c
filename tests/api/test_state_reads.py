"""The poll's cheap read (Tournaments.advance with `seen`): a poll that names the state it was
shown (If-None-Match) reads the tournament eventually consistently, for half a read unit, and
falls back to a strong read when that finds an older version. Against the fake store whose
eventually consistent reads find the version before the latest (`stale_reads`): never a state
older than one the client was shown, the player's own guess above all; and a change decided on
a stale read is decided again on the latest: no write lost."""

from __future__ import annotations

import json
from typing import Any

from api.storage.memory import InMemoryRepository
from api.storage.metering.meter import Meter
from tests.api.clock import FakeClock
from tests.api.conftest import TIMING, game_for
from tests.api.etags import without_pass
from tests.api.game import Game, Player
from tests.api.words import fillers


def version(response: Any) -> int:
    return int(response.headers["ETag"].strip('"').split(".")[0])


def poll(game: Game, player: Player, tid: str, etag: str | None = None) -> Any:
    headers = {"If-None-Match": etag} if etag else {}
    return game.get(f"/v1/tournaments/{tid}/state", player, headers=headers)


def started(make_app: Any, clock: FakeClock, repo: InMemoryRepository) -> tuple[Game, str, Any]:
    game = game_for(make_app(repo), clock, repo)
    tid, players = game.start_tournament()
    first = poll(game, players[0], tid)
    clock.set(first.get_json()["phase_deadline"])  # the duels begin
    return game, tid, players


def test_after_its_own_guess_a_player_never_sees_an_older_state(
    make_app: Any, clock: FakeClock
) -> None:
    repo = InMemoryRepository(stale_reads=True)
    game, tid, players = started(make_app, clock, repo)
    duel = poll(game, players[0], tid).get_json()["duel"]
    me = next(p for p in players if p.id == duel["to_play"])
    guessed = game.guess(me, tid, 0, fillers("en", duel["word_length"])[0])
    assert guessed.status_code == 200
    # The eventually consistent read finds the version before the guess: not taken.
    assert repo.get_tournament(tid, consistent=False).version < version(guessed)
    again = poll(game, me, tid, guessed.headers["ETag"])
    assert again.status_code == 304 and version(again) == version(guessed)
    # Without an ETag the read is strong: the guess is there too.
    rows = poll(game, me, tid).get_json()["duel"]["rows"]
    assert [r["by"] for r in rows] == [me.id]


def test_a_client_is_shown_nothing_older_than_its_etag(make_app: Any, clock: FakeClock) -> None:
    repo = InMemoryRepository(stale_reads=True)
    game, tid, players = started(make_app, clock, repo)
    watcher = players[0]
    etag = poll(game, watcher, tid).headers["ETag"]
    for row in range(3):  # every turn a guess, then a poll naming the last state shown
        duel = next(d for d in poll(game, watcher, tid).get_json()["duels"] if d["to_play"])
        player = next(p for p in players if p.id == duel["to_play"])
        words = fillers("en", duel["word_length"])
        assert game.guess(player, tid, duel["rows"], words[row]).status_code == 200
        seen = int(etag.strip('"').split(".")[0])
        answer = poll(game, watcher, tid, etag)
        assert version(answer) >= seen
        etag = answer.headers["ETag"]


def test_a_change_decided_on_a_stale_read_is_decided_again(make_app: Any, clock: FakeClock) -> None:
    """The client was shown version v-1; the eventually consistent read finds v-1 while v
    holds a guess; the turn then times out: the advance from v-1 fails its condition and is
    made again from v, so the guess stays and the skip follows it."""
    repo = InMemoryRepository(stale_reads=True)
    game, tid, players = started(make_app, clock, repo)
    shown = poll(game, players[0], tid)
    duel = shown.get_json()["duel"]
    me = next(p for p in players if p.id == duel["to_play"])
    assert game.guess(me, tid, 0, fillers("en", duel["word_length"])[0]).status_code == 200
    clock.advance(TIMING.turn_ms + 100)  # the opponent's turn runs out
    answer = poll(game, players[0], tid, shown.headers["ETag"])
    assert answer.status_code == 200
    stored = game.stored(tid)
    mine = next(d for d in stored.rounds[-1].duels if d.id == duel["id"])
    assert [t.player for t in mine.turns][:1] == [me.id]
    assert len(mine.turns) >= 2 and mine.turns[1].skipped
    board = next(d for d in answer.get_json()["duels"] if d["id"] == duel["id"])["board"]
    assert board[0] is not None and board[1] is None  # the guess, then the skip


def metered(make_app: Any, clock: FakeClock) -> tuple[Meter, Game, str, Any]:
    """A started tournament on the fake store with a capacity meter."""
    meter = Meter()
    game, tid, players = started(make_app, clock, InMemoryRepository(meter=meter))
    return meter, game, tid, players


def test_a_poll_naming_its_state_reads_half_a_unit_of_tournament(
    make_app: Any, clock: FakeClock
) -> None:
    meter, game, tid, players = metered(make_app, clock)
    etag = poll(game, players[0], tid).headers["ETag"]

    def tournament_units(etag: str | None) -> float:
        before = meter.by_operation()["get_tournament"].read_units
        poll(game, players[0], tid, etag)
        return meter.by_operation()["get_tournament"].read_units - before

    assert tournament_units(etag) == 0.5  # eventually consistent, the item under 4 KB
    assert tournament_units(None) == 1.0  # nothing shown yet: strong


def reads(meter: Meter, poll_once: Any) -> dict[str, float]:
    before = meter.by_operation()
    poll_once()
    after = meter.by_operation()
    return {
        op: after[op].read_units - before[op].read_units
        for op in after
        if after[op].read_units != (before[op].read_units if op in before else 0.0)
    }


def test_a_poll_with_its_pass_reads_only_the_tournament(make_app: Any, clock: FakeClock) -> None:
    """The poll pass (api/service/poll_passes.py): an unchanged state is answered 304 from the
    tournament's eventually consistent read alone, half a unit (goal <= 1.0 a poll)."""
    meter, game, tid, players = metered(make_app, clock)
    etag = poll(game, players[0], tid).headers["ETag"]
    assert etag.count(".") == 3  # version, phase, position, pass
    answers: list[Any] = []
    spent = reads(meter, lambda: answers.append(poll(game, players[0], tid, etag)))
    assert answers[0].status_code == 304 and answers[0].headers["ETag"] == etag
    assert "Where" not in answers[0].headers  # the position is the one the ETag names
    assert spent == {"get_tournament": 0.5}


def test_a_poll_naming_its_state_without_a_pass_reads_one_unit_in_all(
    make_app: Any, clock: FakeClock
) -> None:
    """Half a unit for the token's player, half for the tournament (≤ 1.0 a poll)."""
    meter, game, tid, players = metered(make_app, clock)
    etag = without_pass(poll(game, players[0], tid).headers["ETag"])
    answers: list[Any] = []
    spent = reads(meter, lambda: answers.append(poll(game, players[0], tid, etag)))
    assert answers[0].status_code == 304 and "Where" in answers[0].headers
    assert spent == {"get_player": 0.5, "get_tournament": 0.5}


def test_a_rotated_token_polls_at_once_and_the_old_one_fails_on_every_other_route(
    make_app: Any, clock: FakeClock
) -> None:
    """R25 with a lagging replica: the eventually consistent read of the player finds the
    token before the rotation, so the new token is read again strongly and works at once; the
    old one fails at once wherever the read is strong (any route, any write, a poll without
    ETag), and on the poll too once the replica has the rotation."""
    repo = InMemoryRepository(stale_reads=True)
    game, tid, players = started(make_app, clock, repo)
    me = players[0]
    etag = poll(game, me, tid).headers["ETag"]
    old = Player(me.id, me.token, me.nickname)
    rotated = game.post("/v1/me/token", me)
    assert rotated.status_code in (200, 201), rotated.get_json()
    me.token = rotated.get_json()["token"]
    assert poll(game, me, tid, etag).status_code == 304
    assert poll(game, me, tid).status_code == 200
    assert game.get("/v1/me", old).status_code == 401
    assert poll(game, old, tid).status_code == 401
    duel = poll(game, me, tid).get_json()["duel"]
    assert game.guess(old, tid, 0, fillers("en", duel["word_length"])[0]).status_code == 401
    repo.stale_reads = False  # the replica has caught up
    # (The poll pass of the old token's last state keeps its 304s for its life at most:
    # tests/api/test_poll_passes.py.)
    assert poll(game, old, tid, without_pass(etag)).status_code == 401


def test_a_poll_never_shows_an_older_position_than_it_was_shown(
    make_app: Any, clock: FakeClock
) -> None:
    """A player who left (D14: free at once) joins the queue and is shown the lobby by a poll
    without ETag (strong); the next poll names that state, and the eventually consistent read
    still finds them without a lobby: not the position shown, so the player is read again
    strongly and the Where header keeps the lobby."""
    repo = InMemoryRepository(stale_reads=True)
    game, tid, players = started(make_app, clock, repo)
    me = players[0]
    assert game.leave(me, tid).status_code == 200
    joined = game.post("/v1/queue", me, json={"language": "en"})
    assert joined.status_code == 201, joined.get_json()
    lobby = joined.get_json()["id"]
    shown = poll(game, me, tid)
    assert json.loads(shown.headers["Where"])["lobby_id"] == lobby
    assert repo.get_player(me.id, consistent=False).lobby_id is None  # the replica lags
    answer = poll(game, me, tid, shown.headers["ETag"])
    assert answer.status_code == 304
    assert json.loads(answer.headers["Where"])["lobby_id"] == lobby
