"""Light and dark themes, in Debian's chromium: the system's setting by default, followed as it
changes; a switch in the top bar whose choice outlives a reload; a duel in both (screenshots in
tests/artifacts/theme-*.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Live
from tests.web.pages import join_in_browser, new_page
from tests.web.puppets import Puppet, Table

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1200, "height": 860}
PHONE = {"width": 360, "height": 740}
BACKGROUNDS = {"dark": "#13111b", "light": "#f4f2fa"}


def theme(page: Any) -> str:
    return str(page.evaluate("document.documentElement.dataset.theme"))


def background(page: Any) -> str:
    css = "getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()"
    return str(page.evaluate(css))


def shows(page: Any, name: str) -> None:
    page.wait_for_function(f"() => document.documentElement.dataset.theme === '{name}'")
    assert background(page) == BACKGROUNDS[name]
    meta = page.locator('meta[name="theme-color"]').get_attribute("content")
    assert meta == BACKGROUNDS[name]


def test_the_theme_follows_the_system_and_the_switch_is_remembered(
    quiet: Live, browser: Any
) -> None:
    context, page, errors = new_page(browser, **PHONE, color_scheme="dark")
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    shows(page, "dark")
    assert page.locator("#theme").get_attribute("aria-pressed") == "true"
    page.emulate_media(color_scheme="light")  # the system changes: the page follows, live
    shows(page, "light")

    page.click("#theme")  # dark, against the system's light: remembered
    shows(page, "dark")
    assert page.locator("#theme").get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('wt.theme')") == "dark"
    page.reload()
    page.wait_for_selector("#play")
    shows(page, "dark")
    page.emulate_media(color_scheme="dark")
    page.emulate_media(color_scheme="light")
    shows(page, "dark")  # the choice wins over the system

    page.click("#theme")  # back to light, the system's own: the app follows the system again
    shows(page, "light")
    assert page.evaluate("localStorage.getItem('wt.theme')") is None
    page.emulate_media(color_scheme="dark")
    shows(page, "dark")
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the top bar is {width} px wide"
    assert not errors, errors
    context.close()


def test_a_duel_in_both_themes(quiet: Live, browser: Any, artifacts: Path) -> None:
    context, page, errors = new_page(browser, **DESKTOP, color_scheme="dark")
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    table = Table(quiet, Puppet(quiet.url), ["Ana", "Ben", "Cleo", "Dmitri", "Eve", "Farid"])
    me = join_in_browser(page, table)
    tid = table.start()
    first = table.wait_round(tid, 1)
    duel = first.duel_of(me.id)
    assert duel is not None
    opponent = duel.opponent(me.id)
    if duel.players[0] == me.id:
        me.play(tid, table.filler(duel, 1))
    table.miss(tid, opponent, 2)
    page.wait_for_selector("#duel #board .brow.played")
    shows(page, "dark")
    page.screenshot(path=str(artifacts / "theme-duel-dark-desktop.png"))
    page.emulate_media(color_scheme="light")
    shows(page, "light")
    page.screenshot(path=str(artifacts / "theme-duel-light-desktop.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts / "theme-duel-light-phone.png"))
    for puppet in [me, *table.puppets]:
        puppet.leave(tid)
    assert not errors, errors
    context.close()
