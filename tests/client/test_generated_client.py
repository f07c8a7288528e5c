"""For mobile developers: the OpenAPI document is complete enough to generate a client.

openapi-python-client (pinned in the dev extras; it needs no network) generates a Python client
from GET /openapi.json into a temporary folder, refusing any warning; eight of its clients then
play a whole tournament against the API on a real threaded werkzeug server over DynamoDB Local,
with a clock the test moves (no sleeping for game time), and read their history, statistics,
the leaderboard and the public summary, which must agree with what they played.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from api import bootstrap
from api.config import Settings
from api.http.app import create_app
from api.loadtest.stack import serve
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from core.timing import Timing
from tests.api.clock import FakeClock
from tests.api.conftest import _quiet_request_logs  # noqa: F401 - autouse here too
from tests.api.words import fillers
from tests.conftest import MakeTable

PACKAGE = "wt_generated_client"
TIMING = Timing(turn_ms=5_000, intro_ms=1_000, reconnect_ms=3_600_000)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The client package, generated from the live document into a temporary folder."""
    app = create_app(Service(Context(InMemoryRepository(), Settings(rate_limits=False))))
    document = app.test_client().get("/openapi.json").get_json()
    folder = tmp_path_factory.mktemp("client")
    spec = folder / "openapi.json"
    spec.write_text(json.dumps(document), encoding="utf-8")
    tools = Path(sys.executable).parent  # the generator, and ruff for its post hooks
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [
            str(tools / "openapi-python-client"),
            "generate",
            "--path",
            str(spec),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _api(package: ModuleType, area: str, operation: str) -> Any:
    return importlib.import_module(f"{package.__name__}.api.{area}.{operation}")


def _model(package: ModuleType, name: str) -> Any:
    return getattr(importlib.import_module(f"{package.__name__}.models"), name)


def test_r1_r16_eight_generated_clients_play_a_tournament(
    generated: ModuleType, make_table: MakeTable
) -> None:
    client_module = importlib.import_module(f"{generated.__name__}.client")
    repo = make_table("dynamodb-local", Settings(timing=TIMING, rate_limits=False))
    clock = FakeClock(1_770_000_000_000)
    service = bootstrap.service(repo.settings, repo, clock=clock, seed=3)
    server = serve(create_app(service))
    rng = random.Random(8)
    create_player = _api(generated, "players", "create_player")
    join_queue = _api(generated, "matchmaking", "join_queue")
    get_state = _api(generated, "tournaments", "get_state")
    play_guess = _api(generated, "tournaments", "play_guess")
    JoinQueueBody = _model(generated, "JoinQueueBody")
    PlayGuessBody = _model(generated, "PlayGuessBody")
    LanguageCode = _model(generated, "LanguageCode")
    try:
        anonymous = client_module.Client(base_url=server.url, raise_on_unexpected_status=True)
        players = []
        for _ in range(8):
            made = create_player.sync(client=anonymous)
            assert made.rating == 1000 and made.token
            players.append(
                (
                    made.id,
                    client_module.AuthenticatedClient(
                        base_url=server.url, token=made.token, raise_on_unexpected_status=True
                    ),
                )
            )
        tid = None
        for _, client in players:
            lobby = join_queue.sync(client=client, body=JoinQueueBody(language=LanguageCode.EN))
            tid = lobby.tournament_id or tid
        assert isinstance(tid, str)

        final = None
        for _ in range(400):
            acted = False
            for pid, client in players:
                state = get_state.sync(client=client, tournament_id=tid)
                if state.phase.value == "finished":
                    final = state
                    break
                if state.phase.value == "intro" and state.phase_deadline > clock.ms:
                    clock.set(state.phase_deadline)
                duel = state.duel
                if duel is None or not duel.your_turn:
                    continue
                secret = next(
                    d
                    for d in repo.get_tournament(tid).tournament.round.duels  # type: ignore[union-attr]
                    if d.id == duel.id
                ).secret
                word = (
                    "".join(secret)
                    if rng.random() < 0.4
                    else rng.choice(fillers("en", duel.word_length))
                )
                after = play_guess.sync(
                    client=client,
                    tournament_id=tid,
                    body=PlayGuessBody(row=len(duel.rows), word=word, duel=duel.id),
                )
                assert after.id == tid and after.you == pid
                acted = True
            if final is not None:
                break
            clock.advance(300 if acted else 1_000)
        assert final is not None, "the tournament did not finish"
        _check_records(generated, client_module, server.url, tid, players, final)
    finally:
        server.close()


def _check_records(
    generated: ModuleType,
    client_module: ModuleType,
    url: str,
    tid: str,
    players: list[tuple[str, Any]],
    final: Any,
) -> None:
    """History, statistics, the leaderboard and the summary, through the generated client."""
    get_summary = _api(generated, "records", "get_summary")
    get_my_history = _api(generated, "records", "get_my_history")
    get_my_stats = _api(generated, "records", "get_my_stats")
    get_leaderboard = _api(generated, "records", "get_leaderboard")
    get_me = _api(generated, "players", "get_me")
    summary = get_summary.sync(client=client_module.Client(base_url=url), tournament_id=tid)
    assert summary.id == tid and summary.finished_at == final.finished_at
    placed = {p.id: p for p in summary.players}
    for seen in final.players:
        assert (placed[seen.id].place, placed[seen.id].rating_change) == (
            seen.place,
            seen.rating_change,
        )
    assert all(d.secret for r in summary.rounds for d in r.duels)
    ratings = {pid: get_me.sync(client=client).rating for pid, client in players}
    for pid, client in players:
        [line] = get_my_history.sync(client=client).entries
        assert line.tournament_id == tid and line.place == placed[pid].place
        assert line.rating_after == ratings[pid] == 1000 + placed[pid].rating_change
        stats = get_my_stats.sync(client=client)
        assert stats.tournaments_played == 1 and stats.average_place == placed[pid].place
        assert stats.wins == int(placed[pid].place == 1)
        assert stats.duels.won + stats.duels.drawn + stats.duels.lost == line.duels.won + (
            line.duels.drawn + line.duels.lost
        )
        board = get_leaderboard.sync(client=client)
        assert board.you.rank == 1 + sum(r > ratings[pid] for r in ratings.values())
        assert board.players == 8
    top = get_leaderboard.sync(client=client_module.Client(base_url=url)).top
    assert [x.rating for x in top] == sorted(ratings.values(), reverse=True)
