"""Coming back, in Debian's chromium: a player removed from a tournament because the reconnect
window ran out (D9: the tab was closed), or who left it from another tab (R20), opens the app
again and sees once what happened — "You were away for more than 6 s, so you left the
tournament: 8th, −25" — with the way to the tournament; the out card says the same. Once seen,
the home screen does not repeat it.

The window is shortened to 6 s (WT_RECONNECT_SECONDS in a deployment; 60 s by default); the
other players are puppets kept in touch by a thread that polls for them.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from core.timing import Timing
from tests.web.catalogues import catalogue
from tests.web.conftest import INTRO_MS, PUPPET_TURN_MS, Live, serving
from tests.web.pages import join_in_browser, new_page
from tests.web.puppets import Puppet, Table, wait_until
from tests.web.screen_checks import readable

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}
WINDOW_MS = 6_000
NAMES = ["Ana", "Ben", "Cleo", "Dmitri", "Eve", "Farid"]


@pytest.fixture(scope="module")
def brief() -> Iterator[Live]:
    """No bots, and a reconnect window of 6 s."""
    timing = Timing(turn_ms=PUPPET_TURN_MS, intro_ms=INTRO_MS, reconnect_ms=WINDOW_MS)
    with serving(timing, False) as app:
        yield app


@contextmanager
def in_touch(puppets: list[Puppet], tid: str) -> Iterator[None]:
    """The puppets poll the state every second (D9: a poll is contact), so that only the
    browser's player, who goes silent, is removed."""
    stop = threading.Event()

    def poll() -> None:
        while not stop.wait(1.0):
            for puppet in puppets:
                puppet.state(tid)

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def answered(page: Any, messages: dict[str, Any]) -> None:
    """The home screen has read the last tournament's state (its button says Watch it live):
    a notice would be there by now."""
    watch = messages["home.last.watch"]
    page.wait_for_function(
        f"() => document.getElementById('last-tournament')?.textContent === {watch!r}"
    )


def reopened(browser: Any, live: Live, token: str, locale: str) -> tuple[Any, Any, list[str]]:
    """The app opened anew (a new tab) with the player's stored token, at its home."""
    context, page, errors = new_page(browser, **PHONE, locale=locale)
    page.add_init_script(f"localStorage.setItem('wt.token', {token!r})")
    page.goto(live.url)
    page.wait_for_selector("#play")
    return context, page, errors


@pytest.mark.parametrize("code", ["en", "kk"])
def test_d9_a_player_removed_after_the_window_sees_once_why_on_coming_back(
    brief: Live, browser: Any, artifacts: Path, code: str
) -> None:
    messages = catalogue(code)
    context, page, errors = new_page(browser, **PHONE, locale=code)
    page.goto(brief.url)
    page.wait_for_selector("#play")
    table = Table(brief, Puppet(brief.url), NAMES)
    me = join_in_browser(page, table)
    token = str(me.client.token)
    tid = table.start()
    with in_touch(table.puppets, tid):
        page.wait_for_function(f"() => location.hash === '#/t/{tid}'", timeout=8_000)
        context.close()  # the tab is closed: nothing more is heard from the player
        wait_until(
            lambda: table.stored(tid).player(me.id).left_at is not None,
            "the removal",
            timeout=WINDOW_MS / 1000 + 10,
        )
        gone = table.stored(tid).player(me.id)
        assert gone.left_at == gone.last_contact + WINDOW_MS  # D9: at the window's end

        # Back at home: what happened, once, with the way to the tournament.
        context, page, errors = reopened(browser, brief, token, code)
        page.wait_for_selector("#exit-notice")
        said = page.locator("#exit-text").inner_text()
        words = messages["back.away.placed"].split("{seconds}")[0]
        assert said.startswith(words.strip()), said
        assert f"{WINDOW_MS // 1000}" in said
        assert re.search(r"[−+±]\d+", said), said  # the rating change: −25
        readable(page, f"coming back in {code}")
        page.screenshot(path=str(artifacts / f"lang-{code}-coming-back.png"))
        page.click("#exit-results")
        page.wait_for_selector("#out")
        heading = page.locator("#out .out-card h2").inner_text()
        assert heading == messages["out.away"].replace("{seconds}", str(WINDOW_MS // 1000))
        page.screenshot(path=str(artifacts / f"lang-{code}-coming-back-out.png"))
        page.goto(brief.url)
        answered(page, messages)
        assert page.locator("#exit-notice").count() == 0  # once
        assert not errors, errors
        context.close()
    for puppet in table.puppets:
        puppet.leave(tid)


def test_r20_a_player_who_left_from_another_tab_is_told_so_once(
    brief: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser, **PHONE)
    page.goto(brief.url)
    page.wait_for_selector("#play")
    table = Table(brief, Puppet(brief.url), NAMES)
    me = join_in_browser(page, table)
    token = str(me.client.token)
    context.close()
    tid = table.start()
    me.leave(tid)  # another tab, another device: this browser never saw it
    with in_touch(table.puppets, tid):
        context, page, errors = reopened(browser, brief, token, "en-US")
        page.wait_for_selector("#exit-notice")
        said = page.locator("#exit-text").inner_text()
        assert re.fullmatch(r"You left the tournament: \d+(st|nd|rd|th), [−+±]\d+.*", said), said
        page.click("#exit-dismiss")
        assert page.locator("#exit-notice").count() == 0
        page.reload()
        answered(page, catalogue("en"))
        assert page.locator("#exit-notice").count() == 0
        assert not errors, errors
        context.close()
    for puppet in table.puppets:
        puppet.leave(tid)
