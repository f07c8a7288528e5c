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
from tests.web.contrast import TILE_TEXT, check, palette
from tests.web.pages import join_in_browser, new_page
from tests.web.puppets import Puppet, Table

pytestmark = pytest.mark.slow

DESKTOP = {"width": 1000, "height": 900}


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
