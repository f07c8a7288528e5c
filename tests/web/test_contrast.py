"""Contrast, computed in Debian's chromium from the rendered colours (tests/web/contrast.py):
every tile letter at 4.5:1 or more against its tile — board tiles, small tiles, keys, the logo —
in the dark and the light theme and in the colour-blind palette over both, and every other text
at WCAG AA, on the home screen, in a duel with played rows, in the wait with its featured duel,
and on the results. The minimum ratio of each palette is printed (docs/client.md quotes them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Live
from tests.web.contrast import SAMPLES, TILE_TEXT, failures, measure
from tests.web.pages import join_in_browser, new_page
from tests.web.puppets import Puppet, Table

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1000, "height": 900}
PALETTES = [("dark", False), ("light", False), ("dark", True), ("light", True)]


def palette(page: Any, theme: str, colour_blind: bool) -> str:
    page.emulate_media(color_scheme=theme)
    page.wait_for_function(f"() => document.documentElement.dataset.theme === {theme!r}")
    page.evaluate(
        "(on) => { localStorage.setItem('wt.palette', on ? 'cb' : 'standard');"
        " document.documentElement.classList.toggle('cb', on); }",
        colour_blind,
    )
    return f"{theme}{' colour-blind' if colour_blind else ''}"


def check(page: Any, where: str, lowest: dict[str, float], samples: bool = False) -> None:
    """Every palette, on the screen as it is: nothing under its ratio."""
    for theme, cb in PALETTES:
        name = palette(page, theme, cb)
        if samples:
            page.evaluate(SAMPLES)
        measured = measure(page)
        assert measured, where
        tiles = [m for m in measured if m["tile"]]
        for m in tiles:
            kind = f"{name}, {'keys' if m['tile'].startswith('button') else 'tiles'}"
            lowest[kind] = min(lowest.get(kind, 99.0), m["ratio"])
            assert m["needs"] == TILE_TEXT
        bad = failures(measured)
        assert not bad, f"{where}, {name}: {bad}"
    page.evaluate("document.getElementById('contrast-samples')?.remove()")
    palette(page, "dark", False)


def test_every_tile_letter_and_every_text_has_the_contrast_wcag_aa_asks(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser, **DESKTOP, color_scheme="dark")
    lowest: dict[str, float] = {}
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    check(page, "home", lowest, samples=True)

    # A duel with rows of every kind on the board and colours on the keys, on our turn.
    table = Table(quiet, Puppet(quiet.url), ["Ana", "Ben", "Cleo", "Dmitri", "Eve", "Farid"])
    me = join_in_browser(page, table)
    tid = table.start()
    first = table.wait_round(tid, 1)
    duel = first.duel_of(me.id)
    assert duel is not None
    opponent = duel.opponent(me.id)
    secret = table.secret(tid, duel)
    if duel.players[0] == me.id:
        me.play(tid, table.filler(duel, 1))
    near = near_miss(table, duel, secret)  # a row with right, misplaced and absent letters
    table.puppet(opponent).play(tid, near)  # type: ignore[union-attr]
    page.wait_for_selector("#duel.my-turn #board .brow.played")
    page.wait_for_selector("#keyboard .key.mG, #keyboard .key.mY")
    check(page, "a duel", lowest, samples=True)
    page.screenshot(path=str(artifacts / "contrast-duel-dark.png"))
    palette(page, "light", True)
    page.screenshot(path=str(artifacts / "contrast-duel-light-cb.png"))
    palette(page, "dark", False)

    # The wait, with its featured duel; then the results.
    page.keyboard.type(secret)
    page.keyboard.press("Enter")
    page.wait_for_selector("#waiting #featured")
    check(page, "the wait", lowest)
    page.click("#t-leave")
    page.click("#leave-dialog-yes")
    page.wait_for_selector("#out")
    check(page, "out", lowest)
    for puppet in table.puppets[:-1]:
        puppet.leave(tid)
    page.wait_for_selector("#results #standings", timeout=15_000)
    check(page, "the results", lowest)
    print("\nlowest tile-letter contrast:", {k: round(v, 2) for k, v in lowest.items()})
    assert min(lowest.values()) >= TILE_TEXT
    assert not errors, errors
    context.close()


def near_miss(table: Table, duel: Any, secret: str) -> str:
    """A word of the list sharing a letter in place with the secret and another out of place,
    when there is one (else any word): the row then shows all three marks."""
    from tests.api.helpers import fillers

    words = fillers(table.language, len(duel.secret))
    for word in words:
        if word == secret:
            continue
        right = any(a == b for a, b in zip(word, secret, strict=True))
        elsewhere = any(c in secret and secret[i] != c for i, c in enumerate(word))
        absent = any(c not in secret for c in word)
        if right and elsewhere and absent:
            return word
    return table.filler(duel, 3)
