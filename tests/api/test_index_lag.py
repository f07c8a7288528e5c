"""GSI lag, which neither moto nor DynamoDB Local models (their indexes are current at once): the
index reads (matchmaking's open lobbies, the sweep's due tournaments and lobbies) answer here
from an older state, as a lagging index would, and the service must stay correct on them.
(The in-memory store also lags by time, `InMemoryRepository(index_lag_ms=...)`: D15's tests in
test_meeting*.py.)"""

from __future__ import annotations

from typing import Any

from api.config import Settings
from api.storage.memory import InMemoryRepository
from tests.api.clock import FakeClock
from tests.api.conftest import TIMING, game_for
from tests.api.repos import RepoProxy


class LaggingIndex(RepoProxy):
    """Index queries answer from the state at `freeze()` until `thaw()`; reads by key and
    writes are current (DynamoDB's base table is strongly consistent, its GSIs are not)."""

    def __init__(self, inner: InMemoryRepository) -> None:
        super().__init__(inner)
        self.store = inner
        self.stale: InMemoryRepository | None = None

    def freeze(self) -> None:
        self.stale = self.store.copy()

    def thaw(self) -> None:
        self.stale = None

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self.stale is not None and name in ("open_lobbies", "due_tournaments", "due_lobbies"):
            return getattr(self.stale, name)(*args, **kwargs)
        return super()._call(name, *args, **kwargs)


def test_d6_d7_a_lagging_open_index_never_seats_anyone_in_a_started_lobby(
    make_app: Any, clock: FakeClock, settings: Settings
) -> None:
    repo = LaggingIndex(InMemoryRepository())
    game = game_for(make_app(repo), clock, repo)
    players = game.new_players(9)
    for p in players[:7]:
        game.post("/v1/queue", p, json={"language": "en"})
    repo.freeze()  # the index still lists the lobby with 7 seats ...
    last = game.post("/v1/queue", players[7], json={"language": "en"}).get_json()
    tid = last["tournament_id"]
    assert tid is not None  # ... after its 8th seat started the tournament (D7)
    late = game.post("/v1/queue", players[8], json={"language": "en"})
    # The join reads the lobby it picked again by key: started, so the late player opens a
    # lobby of its own at once, rather than sitting in a started one or being told to retry.
    assert late.status_code == 201 and late.get_json()["id"] != last["id"]
    assert late.get_json()["tournament_id"] is None
    assert players[8].id not in [p.id for p in game.stored(tid).players]
    assert game.me(players[8])["lobby_id"] == late.get_json()["id"]
    repo.thaw()  # the index caught up
    assert game.get("/v1/queue", players[8]).get_json()["lobby"]["id"] == late.get_json()["id"]


def test_d10_a_lagging_due_index_makes_the_sweep_do_nothing_twice(
    make_app: Any, clock: FakeClock, settings: Settings
) -> None:
    repo = LaggingIndex(InMemoryRepository())
    app = make_app(repo)
    service = app.extensions["service"]
    game = game_for(app, clock, repo)
    players = game.new_players(8)
    tid = game.queue(players)
    clock.advance(TIMING.intro_ms + TIMING.turn_ms + 1)  # the first turns timed out (R11)
    repo.freeze()  # the index lists the tournament as due ...
    game.state(players[0], tid)  # ... but a poll has advanced and saved it already
    saved = game.record(tid)
    report = service.sweep()
    assert (report.due, report.advanced, report.failed) == (1, 0, 0)
    assert game.record(tid).version == saved.version  # nothing written twice
    repo.thaw()
    assert service.sweep().due == 0  # the poll's own write moved it in the index
