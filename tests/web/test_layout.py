"""Every screen of a tournament at 360 px in all 13 interface languages, in Debian's chromium:
no sideways scrolling, no word broken inside itself, names shown whole or with at least 12 of
their characters (the distinguishing end kept: NobleMo…58), the title whole (screen_checks.py
`readable`). One player walks home, the lobby, the group, the intro, their duel, the wait with
its featured duel and the out card, switching the interface language on each screen (as the
picker does); the results, the story and the public results are tests/web/test_story.py.
Screenshots: tests/artifacts/layout-<code>-<screen>.png.

The timers are long (a 20 s intro, two-minute turns), so that every language is seen on every
screen before the game moves on; the other players are puppets with long names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.timing import Timing
from tests.web.catalogues import LOCALES, catalogue
from tests.web.conftest import Live, serving
from tests.web.pages import join_in_browser, new_page
from tests.web.puppets import Puppet, Table
from tests.web.screen_checks import readable_shot

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}
NAMES = [
    "NobleMoose58",
    "NobleMouse91",
    "SilentNarwhal15",
    "Maximilian Alexander",
    "Dmitri Petrovich",
    "Eve",
]


@pytest.fixture(scope="module")
def unhurried() -> Iterator[Live]:
    timing = Timing(turn_ms=120_000, intro_ms=20_000, reconnect_ms=300_000)
    with serving(timing, False) as app:
        yield app


def speak(page: Any, code: str, ready: str) -> None:
    """The interface in `code`, as the picker switches it; `ready` is a function of the
    catalogue's messages (`m`) that is true once the screen is drawn again in that language."""
    page.evaluate("async (code) => (await import('/static/strings.js')).chooseLocale(code)", code)
    page.wait_for_function(
        f"async ([code, m]) => document.documentElement.lang === code && ({ready})",
        arg=[code, catalogue(code)],
    )


def every_language(page: Any, artifacts: Path, screen: str, ready: str) -> None:
    for code in LOCALES:
        speak(page, code, ready)
        readable_shot(
            page, f"{screen} in {code}", artifacts / f"layout-{code}-{screen}.png", full=False
        )
    speak(page, "en", ready)


def round_title(n: int = 1) -> str:
    return (
        "document.getElementById('round-title')?.textContent"
        f" === m['t.round'].replace('{{n}}', '{n}')"
    )


def test_every_screen_of_a_tournament_reads_well_at_360_px_in_every_language(
    unhurried: Live, browser: Any, artifacts: Path
) -> None:
    live = unhurried
    context, page, errors = new_page(browser, **PHONE)
    page.goto(live.url)
    page.wait_for_selector("#play")
    every_language(
        page, artifacts, "home", "document.getElementById('play')?.textContent === m['home.play']"
    )

    page.click("#play")
    page.wait_for_selector("#seats")
    every_language(
        page,
        artifacts,
        "lobby",
        "document.getElementById('lobby-title')?.textContent === m['lobby.heading']"
        " && !!document.querySelector('#seats .seat.me')",
    )
    page.click("#leave-lobby")
    page.wait_for_selector("#play")

    table = Table(live, Puppet(live.url, nickname="Snappy Walrus 77"), NAMES)
    me = join_in_browser(page, table)
    every_language(
        page,
        artifacts,
        "group",
        "document.getElementById('group-title')?.textContent === m['group.heading']"
        " && document.querySelectorAll('#members .member').length === 8",
    )

    tid = table.start()
    page.wait_for_selector("#intro")
    every_language(
        page, artifacts, "intro", f"{round_title()} && !!document.getElementById('intro')"
    )

    # Our duel (we play first, or after the opponent's row), then the other duels get rows.
    first = table.wait_round(tid, 1)
    mine = first.duel_of(me.id)
    assert mine is not None
    others = [d for d in first.duels if d.id != mine.id]
    for k, duel in enumerate(others):
        for n in range(k + 1):
            table.miss(tid, duel.players[n % 2], n)
    if mine.players[0] != me.id:
        table.miss(tid, mine.players[0])
    page.wait_for_selector("#duel.my-turn")
    every_language(
        page, artifacts, "duel", f"{round_title()} && !!document.querySelector('#duel.my-turn')"
    )

    page.keyboard.type(table.secret(tid, mine))
    page.keyboard.press("Enter")
    page.wait_for_selector("#waiting #featured")
    every_language(
        page, artifacts, "wait", f"{round_title()} && !!document.getElementById('featured')"
    )

    page.click("#t-leave")
    page.click("#leave-dialog-yes")
    page.wait_for_selector("#out")
    every_language(page, artifacts, "out", f"{round_title()} && !!document.getElementById('out')")
    for puppet in table.puppets:
        puppet.leave(tid)
    assert not errors, errors
    context.close()
