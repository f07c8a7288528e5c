"""The browser client, end to end, in Debian's chromium against the real app.

One browser player plays a whole tournament against the practice bots with short timers: a
group of one started by its leader, an invalid guess (the row shakes, a message shows, the turn
keeps running), valid guesses from the on-screen and the physical keyboard, a turn left to time
out, a reload mid-duel that reconnects, then elimination or victory, watching, the results with
place and rating change, and back to the group. Every screen is saved under tests/artifacts/.

A second player checks the layout at 360 px: no horizontal overflow on home, lobby and duel, and
the keyboard fits.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

import wordlists
from tests.web.conftest import TURN_MS, Live
from tests.web.pages import Shots, new_page, view

pytestmark = pytest.mark.slow

TOURNAMENT_BUDGET_S = 150


def board_rows(page: Any) -> int:
    return int(page.locator("#board .brow.played").count())


def guessed_rows(page: Any) -> int:
    return int(page.locator("#board .brow.played:not(.skipped)").count())


def guessed(page: Any, before: int) -> bool:
    """Whether our guess made it onto the board (or ended the duel), not a timeout."""
    return view(page) != "duel" or guessed_rows(page) > before


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("!!document.querySelector('#duel.my-turn')"))


def word_length(page: Any) -> int:
    css = "getComputedStyle(document.getElementById('board')).getPropertyValue('--len')"
    return int(page.evaluate(css))


def valid_word(length: int, rng: random.Random) -> str:
    return "".join(rng.choice(wordlists.secret_words("en", length)))


def invalid_word(length: int) -> str:
    word = ("x", "q") * length
    assert not wordlists.is_accepted("en", word[:length])
    return "".join(word[:length])


def test_a_browser_player_plays_a_whole_tournament_against_the_bots(
    live: Live, browser: Any, artifacts: Path
) -> None:
    rng = random.Random(6)
    context, page, errors = new_page(browser, 1200, 860)
    shot = Shots(page, artifacts, "desktop")

    # Home: a generated nickname, editable; the rating; the language picker.
    served = page.goto(live.url)
    assert "frame-ancestors 'none'" in served.headers["content-security-policy"]
    page.wait_for_selector("#play")
    assert page.locator("#rating").inner_text() == "1000"
    page.click("#edit-nickname")
    page.fill("#nickname-input", "Browser Ace")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.getElementById('nickname')?.textContent === 'Browser Ace'"
    )
    assert page.locator("#language").input_value() == "en"
    shot("home")
    token = page.evaluate("localStorage.getItem('wt.token')")
    assert token

    # Group: an invite link to copy, the members, the leader's Start.
    page.click("#group")
    page.wait_for_selector("#invite-link")
    link = page.locator("#invite-link").input_value()
    assert re.search(r"/#/join/g_[0-9a-f]+\.", link), link
    assert "Browser Ace" in page.locator("#members").inner_text()
    shot("group")
    page.click("#start")

    # Lobby: the seats fill with practice bots, the wait and the window show.
    page.wait_for_selector("#seats")
    assert "800–1200" in page.locator("#window").inner_text()
    shot("lobby")

    # Round intro: the pairings and the countdown.
    page.wait_for_selector("#intro #pairings", timeout=30_000)
    assert page.locator("#pairings .pairing").count() == 4
    assert page.locator("#lives .life").count() == 8
    shot("intro")

    done = {"invalid": False, "valid": 0, "timeout": False, "reload": False}
    seen: set[str] = set()
    deadline = time.monotonic() + TOURNAMENT_BUDGET_S
    while time.monotonic() < deadline:
        current = view(page)
        if current == "results":
            break
        if current == "duel" and my_turn(page):
            rows = board_rows(page)
            played = guessed_rows(page)
            length = word_length(page)
            if not done["invalid"]:
                # R13: a word outside the list shakes the row and shows a message; the turn goes on.
                page.keyboard.type(invalid_word(length))
                page.keyboard.press("Enter")
                page.wait_for_selector("#current-row.shake", timeout=3_000)
                page.wait_for_selector("#duel-message.show", timeout=3_000)
                assert page.locator("#duel-message").inner_text() == "Not in the word list"
                shot("duel-invalid-guess")
                assert my_turn(page)
                for _ in range(length):
                    page.keyboard.press("Backspace")
                # A valid word on the on-screen keyboard.
                for letter in valid_word(length, rng):
                    page.click(f'#keyboard [data-key="{letter}"]')
                shot("duel-typing")
                page.click('#keyboard [data-key="Enter"]')
                page.wait_for_function(
                    "() => "
                    f"document.querySelectorAll('#board .brow.played').length > {rows}"
                    " || document.body.dataset.view !== 'duel'"
                )
                done["invalid"] = True
                done["valid"] += guessed(page, played)
                continue
            if not done["timeout"]:
                # R11: nobody plays; the turn times out and shows as a skipped row.
                skipped = page.locator("#board .brow.skipped").count()
                page.wait_for_function(
                    "() => "
                    f"document.querySelectorAll('#board .brow.skipped').length > {skipped}"
                    " || document.body.dataset.view !== 'duel'",
                    timeout=TURN_MS + 6_000,
                )
                # Our skipped row is on the board, or on the final board of the ended duel
                # (the opponent may have won before the next poll).
                if view(page) in ("duel", "waiting"):
                    assert page.locator(".brow.skipped").count() > 0
                if view(page) == "duel":
                    shot("duel-turn-timed-out")
                done["timeout"] = True
                continue
            # A valid word from the physical keyboard.
            page.keyboard.type(valid_word(length, rng))
            page.keyboard.press("Enter")
            page.wait_for_function(
                "() => "
                f"document.querySelectorAll('#board .brow.played').length > {rows}"
                " || document.body.dataset.view !== 'duel'"
            )
            done["valid"] += guessed(page, played)
            continue
        if current == "duel" and done["timeout"] and not done["reload"]:
            # A reload mid-duel reconnects with the stored token, straight back into the game.
            page.reload()
            page.wait_for_selector("#lives .life.you")
            page.wait_for_function(
                "() => "
                "['duel', 'waiting', 'intro', 'out', 'results']"
                ".includes(document.body.dataset.view)"
            )
            assert page.evaluate("localStorage.getItem('wt.token')") == token
            if view(page) == "duel":
                page.wait_for_selector("#board .brow")
                shot("duel-after-reload")
            done["reload"] = True
            continue
        if current in ("waiting", "out") and current not in seen:
            seen.add(current)
            if current == "waiting":
                page.wait_for_selector("#duel-result, .result-card.bye")
            shot(f"{current}")
            if current == "out":
                # R9: eliminated: the place and rating change at once, provisional until the
                # round ends and fixes them (D1).
                assert re.fullmatch(r"\d+(st|nd|rd|th)", page.locator("#out-place").inner_text())
                delta = page.locator("#out-rating .delta").inner_text()
                assert re.fullmatch(r"[+−±]\d+", delta), delta
                assert re.fullmatch(r"\d+ → \d+", page.locator("#out-rating .move").inner_text())
                page.wait_for_selector(
                    "#out-rating .pill.provisional", state="detached", timeout=60_000
                )
                shot("out-placed")
                # R9: a live duel full size, without a click (tests/web/test_featured.py).
                if page.locator("#duel-grid .mini-duel.live").count():
                    page.wait_for_selector("#featured #featured-board")
                    shot("watch")
            continue
        page.wait_for_timeout(150)
    else:
        pytest.fail(f"the tournament did not finish in {TOURNAMENT_BUDGET_S} s: {done}")

    assert done["invalid"] and done["valid"] >= 1 and done["timeout"] and done["reload"], done

    # Results: every place and rating change; ours with its sign.
    page.wait_for_selector("#results #standings")
    assert page.locator("#standings li").count() == 8
    mine = page.locator("#your-result").inner_text()
    assert re.search(r"You finished \d+(st|nd|rd|th) · [+−±]\d+", mine), mine
    shot("results")

    # R22: back to the group screen after the tournament, with the new rating.
    page.click("#results-group")
    page.wait_for_selector("#members")
    assert page.locator("#start").is_visible()
    shot("group-after")
    assert not errors, errors
    context.close()


def test_the_layout_fits_a_360_px_phone(live: Live, browser: Any, artifacts: Path) -> None:
    context, page, errors = new_page(browser, 360, 740)
    shot = Shots(page, artifacts, "phone")

    def no_overflow(where: str) -> None:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{where} is {width} px wide"

    page.goto(live.url)
    page.wait_for_selector("#play")
    no_overflow("home")
    shot("home")

    page.click("#play")
    page.wait_for_selector("#seats")
    no_overflow("lobby")
    shot("lobby")

    page.wait_for_selector("#intro", timeout=30_000)
    no_overflow("intro")
    shot("intro")

    page.wait_for_selector("#duel #keyboard")
    no_overflow("duel")
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#keyboard .key')].map(k => {
            const r = k.getBoundingClientRect();
            return [r.left, r.right, r.top, r.bottom, r.width];
        })"""
    )
    assert boxes
    for left, right, top, bottom, width in boxes:
        assert left >= 0 and right <= 360, (left, right)
        assert top >= 0 and bottom <= 740, (top, bottom)
        assert width >= 24, width  # still a key a thumb can hit
    # The colour-blind palette during the duel: the top bar is hidden, the duel's head has its
    # own toggle, a real button that works from the keyboard (Space: in a duel, Enter always
    # sends the word) and keeps both toggles in step.
    assert not page.locator("#palette").is_visible()
    toggle = page.locator("#duel-palette")
    assert toggle.is_visible()
    assert toggle.get_attribute("aria-label") == "Colour-blind colours"
    assert not page.evaluate("document.documentElement.classList.contains('cb')")
    toggle.focus()
    page.keyboard.press(" ")
    assert page.evaluate("document.documentElement.classList.contains('cb')")
    assert toggle.get_attribute("aria-pressed") == "true"
    assert page.locator("#palette").get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('wt.palette')") == "cb"
    no_overflow("duel with the palette toggle")
    shot("duel")
    page.keyboard.press(" ")
    assert not page.evaluate("document.documentElement.classList.contains('cb')")
    assert toggle.get_attribute("aria-pressed") == "false"

    # Leaving mid-tournament asks first, then counts as a loss (R20).
    page.click("#t-leave")
    page.wait_for_selector("#leave-dialog")
    no_overflow("the question before leaving")
    shot("leave-question")
    page.click("#leave-dialog-yes")
    page.wait_for_selector("#out")
    no_overflow("out")
    shot("left")
    assert not errors, errors
    context.close()
