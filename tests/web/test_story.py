"""The lively wait, the player who is out, the results and the whole story, in Debian's chromium.

- R9: while the player's own duel is over, every duel of the round shows at a glance (small
  boards with their rows, whose turn, the time left, both players' lives), and any of them opens
  full size, followed through the state with `?watch=`.
- R9, D1: a player who leaves sees their place and rating change at once, marked provisional
  until the round ends and fixes them.
- R7, R17: the results show everyone's rating before → after, and fit a 360 px phone without
  sideways scrolling.
- R8, D2, D4: the story shows every round played: pairings, byes, results, who went out, and
  every final board with its secret.

Screenshots (desktop, 360 px, and German) go to tests/artifacts/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.timing import MAX_ROWS
from tests.web.catalogues import LOCALES, catalogue
from tests.web.conftest import Live
from tests.web.pages import Shots, new_page
from tests.web.puppets import Puppet, Table, wait_until
from tests.web.screen_checks import fits, names_readable, no_lone_character, readable_shot

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}
MOVE = re.compile(r"^\d+ → \d+$")


def test_r9_the_lively_wait_shows_every_duel_and_opens_any_of_them(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser, **DESKTOP)
    shot = Shots(page, artifacts, "wait")
    watched: list[str] = []
    page.on("request", lambda r: watched.append(r.url) if "watch=" in r.url else None)
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    table = Table(quiet, Puppet(quiet.url), ["Ana", "Ben", "Cleo", "Dmitri", "Eve", "Farid"])
    page.goto(table.invite)
    page.wait_for_selector("#members")
    me = Puppet(quiet.url, token=page.evaluate("localStorage.getItem('wt.token')"))
    tid = table.start()
    page.wait_for_function(f"() => location.hash === '#/t/{tid}'", timeout=8_000)

    # Our duel ends at once (we find the word); the three others get a few rows each.
    first = table.wait_round(tid, 1)
    mine = first.duel_of(me.id)
    assert mine is not None
    if mine.players[0] != me.id:
        table.miss(tid, mine.players[0])
    me.play(tid, table.secret(tid, mine))
    others = [d for d in first.duels if d.id != mine.id]
    for k, duel in enumerate(others):
        for n in range(k + 1):
            table.miss(tid, duel.players[n % 2], n)

    page.wait_for_selector("#waiting #duel-result.won")
    page.wait_for_function(
        "() => document.querySelectorAll('#duel-grid .mini-duel.live').length === 3"
        " && document.querySelectorAll('#duel-grid .mini-duel.live .mrow:not(.current)').length"
        " >= 6"
    )
    grid = page.locator("#duel-grid .mini-duel")
    assert grid.count() == 4
    for k, duel in enumerate(others):
        card = page.locator(f"#mini-{duel.id}")
        assert card.locator(".mrow:not(.current)").count() >= k + 1
        assert card.locator(".mside.turn").count() == 1  # whose turn
        assert re.fullmatch(r"\d+ s", card.locator(".clock").inner_text())  # time left
        assert card.locator(".heart.full").count() == 6  # both players' lives
    assert page.locator(f"#mini-{mine.id}.over .msecret").count() == 1
    shot("desktop")
    page.set_viewport_size(PHONE)
    fits(page, "the lively wait")
    shot("phone")

    # Any duel can be pinned full size, followed through the state's ?watch= (R9); the rest
    # of the featured duel is tests/web/test_featured.py.
    target = others[0]
    page.click(f"#mini-{target.id}")
    page.wait_for_selector(f'#featured[data-duel="{target.id}"] #featured-board .brow.played')
    wait_until(lambda: any(f"watch={target.id}" in url for url in watched), "?watch=")
    fits(page, "a pinned duel")
    shot("watch-phone")
    page.set_viewport_size(DESKTOP)
    shot("watch-desktop")
    page.click("#featured-unpin")
    page.wait_for_selector("#waiting #duel-grid #featured, #waiting #featured")

    # We leave (R20): place and rating change at once, provisional until the round ends (D1).
    page.click("#t-leave")
    page.click("#leave-dialog-yes")
    page.wait_for_selector("#out #out-rating .pill.provisional")
    assert "provisional" in (page.locator("#out-place").get_attribute("class") or "")
    assert MOVE.match(page.locator("#out-rating .move").inner_text())
    assert page.locator("#out-provisional").is_visible()
    shot("out-provisional")
    page.set_viewport_size(PHONE)
    fits(page, "the out card")
    shot("out-provisional-phone")
    for duel in others:
        table.first_puppet_wins(tid, duel)
    page.wait_for_selector("#out-rating .pill.provisional", state="detached", timeout=10_000)
    assert "provisional" not in (page.locator("#out-place").get_attribute("class") or "")
    assert page.locator("#out-place").inner_text() == "8th"
    shot("out-placed-phone")
    for puppet in table.puppets[:-1]:
        puppet.leave(tid)
    assert not errors, errors
    context.close()


# ---------------------------------------------------------------- a whole tournament, by API


def play_round(table: Table, tid: str, me: Puppet, number: int, *, draw: bool = False) -> None:
    """Every duel of round `number` ends: the browser's player loses, the first puppet to play
    wins the others, and one duel (with `draw`) runs its board full."""
    rnd = table.wait_round(tid, number)
    duels = list(rnd.duels)
    drawn = [d.id for d in duels if me.id not in d.players][-1:] if draw else []
    for duel in duels:
        if table.duel_of_id(tid, duel.id).ended_at is not None:
            continue  # a forfeit (D8)
        if me.id in duel.players:
            opponent = duel.opponent(me.id)
            if duel.players[0] == me.id:
                me.play(tid, table.filler(duel, 1))
            table.win(tid, opponent)
        elif duel.id in drawn:
            for n in range(MAX_ROWS):
                table.miss(tid, duel.players[n % 2], n)
        else:
            table.first_puppet_wins(tid, duel)


@pytest.fixture(scope="module")
def finished(quiet: Live) -> Iterator[tuple[str, str]]:
    """A whole tournament: the browser's player (a puppet here, its token kept for the browser)
    goes out in round 3; one duel of round 2 is a draw; a puppet leaves in round 4; byes come as
    players go out. Yields the tournament and the token."""
    me = Puppet(quiet.url, nickname="Maximilian Alexander")  # 20 characters: the longest
    assert me.nickname == "Maximilian Alexander"
    table = Table(quiet, Puppet(quiet.url, nickname="Leader Lea"), ["Ana", "Ben", "Cleo", "Eve"])
    table.add(Puppet(quiet.url, nickname="Dmitri Petrovich"))
    table.add(Puppet(quiet.url, nickname="Farid"))
    table.add(me)
    table.puppets.remove(me)
    tid = table.start()
    number = 1
    while table.stored(tid).finished_at is None:
        rnd = table.wait_round(tid, number)
        if number == 4:
            leaver = next(p for p in table.puppets if rnd.duel_of(p.id) is not None)
            leaver.leave(tid)
        play_round(table, tid, me, number, draw=number == 2)
        number += 1
    yield tid, str(me.client.token)


def results_page(
    browser: Any, live: Live, finished: tuple[str, str], size: dict[str, int], locale: str = "en-US"
) -> tuple[Any, Any, list[str]]:
    """The finished tournament's results, as the browser's player (its token) sees them."""
    tid, token = finished
    context, page, errors = new_page(browser, size["width"], size["height"], locale=locale)
    page.add_init_script(f"localStorage.setItem('wt.token', {token!r})")
    page.goto(f"{live.url}/#/t/{tid}")
    page.wait_for_selector("#results #standings")
    return context, page, errors


def test_r7_the_results_show_rating_before_and_after_and_fit_a_360_px_phone(
    quiet: Live, browser: Any, artifacts: Path, finished: tuple[str, str]
) -> None:
    context, page, errors = results_page(browser, quiet, finished, PHONE)
    shot = Shots(page, artifacts, "results")
    fits(page, "the results")
    rows = page.locator("#standings .standing")
    assert rows.count() == 8
    for i in range(8):
        assert MOVE.match(rows.nth(i).locator(".move").inner_text())
    assert rows.locator(".who-note").count() == 0  # only the public results say who went out when
    assert re.fullmatch(r"1000 → \d+", page.locator("#your-rating").inner_text())
    # Our own row says "(you)" however long the name (it is the name that gets shortened).
    mine = page.locator("#standings .standing.you")
    assert mine.locator(".you-mark").inner_text() == "(you)"
    assert mine.locator(".pname .sr-only").text_content() == "Maximilian Alexander"
    names_readable(page, "the results")
    shot("phone")
    page.set_viewport_size(DESKTOP)
    shot("desktop")
    assert not errors, errors
    context.close()


@pytest.mark.parametrize("code", LOCALES)
def test_r7_the_results_and_the_story_read_well_at_360_px_in_every_language(
    quiet: Live, scrollbars_browser: Any, artifacts: Path, finished: tuple[str, str], code: str
) -> None:
    """At 360 px, where a classic scrollbar takes 15 px of them: no sideways scrolling, no word
    broken inside itself, names of 12 characters or whole, "(you)" on our own row; then the
    story, and the public results of the same tournament."""
    tid, _ = finished
    context, page, errors = results_page(scrollbars_browser, quiet, finished, PHONE, code)
    messages = catalogue(code)
    assert page.locator("#standings .standing").count() == 8
    assert page.locator("#open-story").inner_text() == messages["story.open"]
    assert page.locator(".standing.you .you-mark").inner_text() == messages["group.you"]
    if code == "uz":
        # Places are longest in Uzbek, written with their noun ("8-oʻrin"), the hyphen one that
        # never breaks (U+2011).
        assert re.match(r"Siz \d\u2011oʻrindasiz", page.locator("#your-result").inner_text())
    width = PHONE["width"]
    readable_shot(page, f"the results in {code}", artifacts / f"lang-{code}-results.png", width)
    no_lone_character(page, "#share-preview .share-url", f"the share's address in {code}")
    page.click("#open-story")
    page.wait_for_selector("#story .story-round")
    readable_shot(page, f"the story in {code}", artifacts / f"lang-{code}-story.png", width)
    page.goto(f"{quiet.url}/#/r/{tid}")
    page.wait_for_selector("#summary #standings")
    summary = artifacts / f"lang-{code}-summary.png"
    readable_shot(page, f"the public results in {code}", summary, width)
    assert not errors, errors
    context.close()


def test_r8_the_story_shows_every_round_with_its_boards_and_secrets(
    quiet: Live, browser: Any, artifacts: Path, finished: tuple[str, str]
) -> None:
    tid, token = finished
    context, page, errors = results_page(browser, quiet, finished, DESKTOP)
    shot = Shots(page, artifacts, "story")
    page.click("#open-story")
    page.wait_for_selector("#story .story-round")
    assert page.evaluate("location.hash") == f"#/t/{tid}/story"
    history = Puppet(quiet.url, token=token).call("GET", f"/v1/tournaments/{tid}/history")
    rounds = history["rounds"]
    assert page.locator("#story-rounds .story-round").count() == len(rounds) >= 5
    for rnd in rounds:
        section = page.locator(f"#story-round-{rnd['number']}")
        duels = section.locator(".story-duel")
        assert duels.count() == len(rnd["duels"])
        for k, duel in enumerate(rnd["duels"]):
            card = duels.nth(k)
            secret = card.locator(".msecret .mt").all_inner_texts()
            assert secret == [tile.upper() for tile in duel["secret"]]
            assert card.locator(".mrow").count() == len(duel["board"])
        if rnd["bye"]:
            assert "bye" in section.locator(".round-bye").inner_text()
        if rnd["out"]:
            assert section.locator(".round-out").inner_text().startswith("Out: ")
    draws = page.locator(".story-result", has_text="Draw — nobody found it")
    assert draws.count() >= 1
    assert page.locator(".story-result", has_text="left the duel").count() >= 1
    assert page.locator("#story .sp").count() == 8
    shot("desktop")
    page.set_viewport_size(PHONE)
    fits(page, "the story")
    shot("phone")
    page.click("#story-back")
    page.wait_for_selector("#results")
    assert page.evaluate("location.hash") == f"#/t/{tid}"
    assert not errors, errors
    context.close()


def test_d17_the_results_and_the_story_in_german_fit_a_360_px_phone(
    quiet: Live, browser: Any, artifacts: Path, finished: tuple[str, str]
) -> None:
    de = catalogue("de")
    context, page, errors = results_page(browser, quiet, finished, PHONE, "de-DE")
    assert page.locator("#open-story").inner_text() == de["story.open"]
    fits(page, "the results in German")
    page.click("#open-story")
    page.wait_for_selector("#story .story-round")
    assert page.locator("#story h2").inner_text() == de["story.heading"]
    fits(page, "the story in German")
    page.screenshot(path=str(artifacts / "lang-de-story.png"))
    assert not errors, errors
    context.close()
