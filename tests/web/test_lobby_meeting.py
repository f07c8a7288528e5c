"""D15 as a person sees it: two browsers press Play at the same moment on a server whose lobby
index lags (as DynamoDB's does), so each first sits alone in a lobby of its own; within a few
seconds both lobby screens show the same lobby with both players. No bots."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from core.timing import Timing
from scheduler import loop

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lagging_url() -> Iterator[tuple[str, Service]]:
    settings = Settings(timing=Timing(), rate_limits=False)
    service = Service(Context(InMemoryRepository(index_lag_ms=2_000), settings))
    server = make_server("127.0.0.1", 0, create_app(service), threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="web-d15", daemon=True)
    thread.start()
    sweeping = loop.start(service, interval_s=1.0)
    try:
        yield f"http://127.0.0.1:{server.server_port}", service
    finally:
        sweeping.set()
        server.shutdown()


def seat_names(page: Any) -> list[str]:
    return [str(n) for n in page.locator("#seats .seat.taken .seat-name").all_inner_texts()]


def test_d15_two_players_who_press_play_together_see_one_lobby(
    browser: Any, lagging_url: tuple[str, Service], artifacts: Path
) -> None:
    url, service = lagging_url
    pages = [browser.new_context().new_page() for _ in range(2)]
    for page in pages:
        page.goto(url)
        page.wait_for_selector("#play")
    for page in pages:
        page.click("#play")  # within a few hundred ms: the index shows neither new lobby
    for page in pages:
        page.wait_for_selector("#seats")
    lobbies = {service.ctx.repo.get_player(p.evaluate(ID)).lobby_id for p in pages}  # type: ignore[union-attr]
    assert len(lobbies) == 2  # each alone at first
    for page in pages:
        page.wait_for_function(
            "() => document.querySelectorAll('#seats .seat.taken').length === 2", timeout=8_000
        )
    assert sorted(seat_names(pages[0])) == sorted(seat_names(pages[1]))
    lobbies = {service.ctx.repo.get_player(p.evaluate(ID)).lobby_id for p in pages}  # type: ignore[union-attr]
    assert len(lobbies) == 1
    pages[0].screenshot(path=str(artifacts / "d15-lobby-met.png"))
    for page in pages:
        page.context.close()


ID = "localStorage.getItem('wt.token').split('.')[0]"
