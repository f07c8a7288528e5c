"""House bots as the browser shows them, in Debian's chromium: the lobby counts down to the
moment practice players fill its seats (GET /v1/queue's `bots_at`), and a bot carries a small
robot mark beside its name — and "(bot)" for a screen reader — in the lobby, the intro, the
duel's head, the previews, the results, the story and the public results.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.timing import Timing
from tests.web.catalogues import ENGLISH
from tests.web.conftest import BOT_KEY, INTRO_MS, Live, serving
from tests.web.pages import join_in_browser, new_page
from tests.web.puppets import Puppet, Table

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}
FILL_MS = 6_000
BOT = ENGLISH["t.bot.name"].replace("{name}", "")  # " (bot)"


@pytest.fixture(scope="module")
def slow_fill() -> Iterator[Live]:
    """The practice bots' pool, filling a lobby 6 s after its last seat was taken."""
    timing = Timing(turn_ms=8_000, intro_ms=INTRO_MS, reconnect_ms=60_000)
    with serving(timing, True, bot_fill_ms=FILL_MS) as app:
        yield app


def marked(page: Any, where: str) -> int:
    """How many names under `where` carry the robot mark, each also said as "(bot)"."""
    names = page.locator(f"{where} .pname:has(.bot-mark)")
    for i in range(names.count()):
        assert names.nth(i).locator(".sr-only").text_content().endswith(BOT)
    return int(names.count())


def test_the_lobby_counts_down_to_the_practice_players_and_marks_them_everywhere(
    slow_fill: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser, **PHONE)
    page.goto(slow_fill.url)
    page.wait_for_selector("#play")
    page.click("#play")
    page.wait_for_selector("#bots-note:not([hidden])")
    pattern = re.escape(ENGLISH["lobby.bots"]["other"]).replace(r"\{n\}", r"(\d+)")
    first = re.fullmatch(pattern, page.locator("#bots-note").inner_text())
    assert first and 1 <= int(first[1]) <= FILL_MS // 1000, page.locator("#bots-note").inner_text()
    page.screenshot(path=str(artifacts / "bots-lobby-countdown.png"))
    shown_at = time.monotonic()
    text = page.locator("#bots-note").inner_text()
    page.wait_for_function(  # it counts down (or says they are joining)
        f"() => document.getElementById('bots-note')?.textContent !== {text!r}"
    )
    # They come when it said (the pool fills at the same moment, give or take its 0.2 s tick),
    # all at once: the tournament starts (the marks in a lobby: the test below).
    page.wait_for_selector("#intro, #duel", timeout=30_000)
    came = time.monotonic() - shown_at
    assert came <= int(first[1]) + 2.5, came
    if page.locator("#pairings").count():
        assert marked(page, "#pairings") == 7
    lives = page.locator("#lives .life:has(.bot-mark)")
    assert lives.count() == 7
    for i in range(7):
        assert BOT in lives.nth(i).locator(".sr-only").text_content()
    page.wait_for_selector("#duel #duel-head")
    assert marked(page, "#duel-head") == 1  # our opponent
    page.screenshot(path=str(artifacts / "bots-duel-phone.png"))
    page.click("#t-leave")
    page.click("#leave-dialog-yes")
    page.wait_for_selector("#out #duel-grid")
    assert marked(page, "#duel-grid") >= 6
    page.screenshot(path=str(artifacts / "bots-out-phone.png"), full_page=True)
    assert not errors, errors
    context.close()


def test_bots_are_marked_in_the_results_the_story_and_the_public_results(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser, **PHONE)
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    table = Table(quiet, Puppet(quiet.url, nickname="Leader Lea"))
    bots = [Puppet(quiet.url, bot_key=BOT_KEY) for _ in range(3)]
    for bot in bots:
        table.add(bot)
    for name in ["Ana", "Ben", "Cleo"]:
        table.add(Puppet(quiet.url, nickname=name))
    me = join_in_browser(page, table)
    tid = table.start()
    page.wait_for_function(f"() => location.hash === '#/t/{tid}'", timeout=8_000)
    for puppet in [me, *table.puppets[:-1]]:
        puppet.leave(tid)
    page.wait_for_selector("#results #standings", timeout=15_000)
    assert marked(page, "#standings") == len(bots)
    page.screenshot(path=str(artifacts / "bots-results-phone.png"), full_page=True)
    page.click("#open-story")
    page.wait_for_selector("#story .sp")
    assert marked(page, ".story-players") == len(bots)
    page.goto(f"{quiet.url}/#/r/{tid}")
    page.wait_for_selector("#summary #standings")
    assert marked(page, "#standings") == len(bots)
    assert not errors, errors
    context.close()


def test_bots_are_marked_in_the_lobby(quiet: Live, browser: Any, artifacts: Path) -> None:
    context, page, errors = new_page(browser, **PHONE)
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    page.click("#play")
    page.wait_for_selector("#seats .seat.me")
    bots = [Puppet(quiet.url, bot_key=BOT_KEY) for _ in range(2)]
    for bot in bots:
        bot.call("POST", "/v1/queue", {"language": "en"})
    page.wait_for_function("() => document.querySelectorAll('#seats .seat.taken').length === 3")
    page.wait_for_function("() => document.querySelectorAll('#seats .bot-mark').length === 2")
    assert marked(page, "#seats") == len(bots)
    assert page.locator("#bots-note").is_hidden()  # house bots are off on this server
    page.screenshot(path=str(artifacts / "bots-lobby-phone.png"))
    for bot in bots:
        bot.call("DELETE", "/v1/queue")
    page.click("#leave-lobby")
    page.wait_for_selector("#play")
    assert not errors, errors
    context.close()
