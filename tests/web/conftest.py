"""The browser client's end-to-end fixtures: the real app on a free local port with short
timers, the sweep, the practice bots' pool, and Debian's chromium driven by Playwright.

Playwright's own browser download does not work here: `make test` installs /usr/bin/chromium
(the `system-packages` target) and Playwright launches that binary.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from core.timing import Timing
from scheduler import loop

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

TURN_MS = 5_000
INTRO_MS = 1_000
RECONNECT_MS = 30_000


# The real intro (R2) for the tests that must see it as a person would; turns stay short.
REAL_INTRO_MS = 6_000
SHORT_TURN_MS = 4_000


@dataclass
class Live:
    url: str
    service: Service
    app: Flask


BOT_KEY = "web-e2e-bot-key"


@contextmanager
def serving(timing: Timing, bots: bool, bot_fill_ms: int = 300) -> Iterator[Live]:
    """The app on a free local port with `timing`, the sweep, and (with `bots`) house bots
    (D18), which fill a lobby with a person in it `bot_fill_ms` after its last seat was taken."""
    settings = Settings(
        timing=timing,
        rate_limits=False,
        house_bots=bots,
        bot_fill_ms=bot_fill_ms,
        bot_key=BOT_KEY,
    )
    service = Service(Context(InMemoryRepository(), settings))
    app = create_app(service)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    url = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, name="web-e2e", daemon=True)
    thread.start()
    sweeping = loop.start(service, interval_s=0.25)
    try:
        yield Live(url, service, app)
    finally:
        sweeping.set()
        server.shutdown()


# Against the bots, an intro a test can still catch after its lobby's checks and screenshot on
# a busy machine (a 1 s intro went by unseen: the language tests then waited for it in vain).
BOTS_INTRO_MS = 2_500
SHORT = Timing(turn_ms=TURN_MS, intro_ms=BOTS_INTRO_MS, reconnect_ms=RECONNECT_MS)


@pytest.fixture(scope="session")
def live() -> Iterator[Live]:
    with serving(SHORT, True) as app:
        yield app


# Puppets play every move themselves and never wait for a timeout: a longer turn keeps a slow
# (loaded) machine from timing out a turn between two of a test's moves. A puppet is heard from
# only when it plays; a longer reconnect window keeps the ones that wait while the test works
# the browser (or for another puppet's 15 s turn) from being dropped as gone (R21).
PUPPET_TURN_MS = 15_000
PUPPET_RECONNECT_MS = 120_000


@pytest.fixture(scope="session")
def quiet() -> Iterator[Live]:
    """Without bots: tests that drive every player themselves (puppets) leave nothing playing
    behind them, and a lobby stays open as long as they want."""
    timing = Timing(turn_ms=PUPPET_TURN_MS, intro_ms=INTRO_MS, reconnect_ms=PUPPET_RECONNECT_MS)
    with serving(timing, False) as app:
        yield app


@pytest.fixture(scope="module")
def real_intro() -> Iterator[Live]:
    """The real 6 s intro with 4 s turns, and no bots."""
    timing = Timing(turn_ms=SHORT_TURN_MS, intro_ms=REAL_INTRO_MS, reconnect_ms=RECONNECT_MS)
    with serving(timing, False) as app:
        yield app


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    if not CHROMIUM.exists():
        # A failure, not a skip: a browser check that silently does not run checks nothing.
        pytest.fail("no /usr/bin/chromium: `make system-packages` (in `make test`) installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    # Playwright gives every launch a new, empty profile (user-data-dir) of its own.
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
    )
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="module")
def scrollbars_browser(playwright: Any) -> Iterator[Any]:
    """Chromium with classic scrollbars (15 px of the width), as on a desktop: Playwright's
    headless default hides them, which hides layouts that only fit without them (100vw counts
    the scrollbar)."""
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_FLAGS,
        ignore_default_args=["--hide-scrollbars"],
    )
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
