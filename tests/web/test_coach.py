"""D19, the coach in Debian's chromium: an ended duel's analysis opens from the story, from the
results (the player's duels) and from the public results; what it shows is what the API gives
(`GET …/duels/{duel_id}/analysis`), row by row and per player; it is asked for once (kept in
memory); no request is ever made for a live duel (the server's 409 `duel_in_play` never comes),
and a 409 from a server that says so anyway is a short message; the share adds the skill of the
player's words; it reads well at 360 px in every language.

The browser's player plays a tournament as a puppet (its token then goes to the browser): every
duel of theirs has a few rows of ordinary words before the opponent finds the secret.

Screenshots: tests/artifacts/coach-*.png and lang-<code>-coach*.png.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.catalogues import LOCALES, catalogue
from tests.web.coaching import (
    DESKTOP,
    PHONE,
    Coached,
    analysis_requests,
    play_coached,
    sheet_fits,
    shows_the_analysis,
    signed_in,
    word,
)
from tests.web.conftest import Live
from tests.web.contrast import check
from tests.web.pages import Shots, new_page
from tests.web.puppets import Puppet, Table, wait_until
from tests.web.screen_checks import fits, readable

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def coached(quiet: Live) -> Iterator[Coached]:
    yield play_coached(quiet)


def test_d19_the_story_opens_a_duels_analysis_with_the_apis_numbers(
    quiet: Live, browser: Any, artifacts: Path, coached: Coached
) -> None:
    context, page, errors = signed_in(browser, coached, DESKTOP)
    asked = analysis_requests(page)
    shot = Shots(page, artifacts, "coach-story")
    page.goto(f"{quiet.url}/#/t/{coached.tid}/story")
    page.wait_for_selector("#story .story-round")
    history = coached.history()
    # Every ended duel with a word played opens its analysis; its button names the duel.
    for rnd in history["rounds"]:
        for duel in rnd["duels"]:
            button = page.locator(f"#coach-open-{duel['id']}")
            assert button.count() == (1 if any(r is not None for r in duel["board"]) else 0)
    (round_no, mine) = coached.my_duels()[0]
    button = page.locator(f"#coach-open-{mine['id']}")
    assert (button.get_attribute("aria-label") or "").startswith("Analysis: You vs ")
    button.click()
    a = coached.analysis(mine["id"])
    shows_the_analysis(page, a, coached.me.id)
    assert page.locator("#coach-round").inner_text().upper() == f"ROUND {round_no} · ANALYSIS"
    assert page.evaluate("document.activeElement.id") == "coach-close"
    shot("desktop")
    # Closed, the focus goes back to the button that opened it.
    page.click("#coach-close")
    page.wait_for_selector("#coach", state="detached")
    assert page.evaluate("document.activeElement.id") == f"coach-open-{mine['id']}"
    # Opened again: from memory, no second request (the analysis never changes).
    button.click()
    shows_the_analysis(page, a, coached.me.id)
    # The back button closes it, and only it: the story stays.
    page.go_back()
    page.wait_for_selector("#coach", state="detached")
    assert page.evaluate("location.hash") == f"#/t/{coached.tid}/story"
    assert page.locator("#story").count() == 1
    # Escape closes it too.
    button.click()
    page.wait_for_selector("#coach #coach-rows")
    page.keyboard.press("Escape")
    page.wait_for_selector("#coach", state="detached")
    assert asked == [(mine["id"], 200)], asked
    # Another player's duel: the same, for a duel the player only watched.
    other = next(d for d in history["rounds"][0]["duels"] if coached.me.id not in d["players"])
    page.click(f"#coach-open-{other['id']}")
    shows_the_analysis(page, coached.analysis(other["id"]), coached.me.id)
    page.set_viewport_size(PHONE)
    fits(page, "the analysis at 360 px")
    shot("phone")
    assert not errors, errors
    context.close()


def test_d19_the_results_open_the_players_duels_and_the_share_adds_their_skill(
    quiet: Live, browser: Any, artifacts: Path, coached: Coached
) -> None:
    context, page, errors = signed_in(browser, coached, PHONE)
    asked = analysis_requests(page)
    page.goto(f"{quiet.url}/#/t/{coached.tid}")
    page.wait_for_selector("#results #your-duels .duel-line")
    page.wait_for_selector("#results #share-card #share")
    mine = coached.my_duels()
    analyses = {duel["id"]: coached.analysis(duel["id"]) for _, duel in mine}
    lines = page.locator("#your-duels .duel-line")
    assert lines.count() == len(mine) == 3  # out after three lost duels
    for k, (round_no, duel) in enumerate(mine):
        line = lines.nth(k)
        assert line.get_attribute("data-duel") == duel["id"]
        assert line.locator(".dl-round").inner_text() == f"Round {round_no}"
        own = next(
            s for s in analyses[duel["id"]]["players_summary"] if s["player"] == coached.me.id
        )
        assert line.locator(".dl-skill").inner_text() == f"Skill {own['skill']}/100"
    # Each of the player's duels asked for once, for the share, and none twice.
    assert sorted(asked) == sorted((d["id"], 200) for _, d in mine), asked
    skills = [
        r["skill"]
        for a in analyses.values()
        for r in a["rows"]
        if r["by"] == coached.me.id and r["skill"] is not None
    ]
    skill = math.floor(sum(skills) / len(skills) + 0.5)
    preview = page.locator("#share-preview .share-line")
    assert preview.nth(2).inner_text() == f"Skill {skill}/100"
    plain = page.locator("#share-plain").text_content() or ""
    assert f"Your words scored {skill} out of 100 for skill." in plain
    fits(page, "the results with the player's duels")
    page.locator("#your-duels").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "coach-results-phone.png"))
    # A line opens its duel's analysis, from memory.
    lines.nth(1).click()
    shows_the_analysis(page, analyses[mine[1][1]["id"]], coached.me.id)
    assert len(asked) == len(mine)
    page.screenshot(path=str(artifacts / "coach-phone.png"))
    page.locator("#coach-rows .coach-row").last.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "coach-phone-rows.png"))
    page.click("#coach-close")
    page.wait_for_selector("#coach", state="detached")
    assert page.evaluate("document.activeElement.id") == f"coach-line-{mine[1][1]['id']}"
    assert not errors, errors
    context.close()


def test_d19_the_public_results_open_any_duels_analysis_without_a_player(
    quiet: Live, browser: Any, coached: Coached
) -> None:
    context, page, errors = new_page(browser, **PHONE)
    asked = analysis_requests(page)
    page.goto(f"{quiet.url}/#/r/{coached.tid}")
    page.wait_for_selector("#summary .story-round")
    last = coached.history()["rounds"][-1]["duels"][0]
    page.click(f"#coach-open-{last['id']}")
    shows_the_analysis(page, coached.analysis(last["id"]), you="nobody")
    fits(page, "the public results' analysis")
    assert asked == [(last["id"], 200)]
    assert page.evaluate("localStorage.getItem('wt.token')") is None  # no player made for it
    assert not errors, errors
    context.close()


# ---------------------------------------------------------------- never a live duel


def test_d19_no_analysis_is_asked_for_a_live_duel(quiet: Live, browser: Any) -> None:
    """During a tournament, the story offers the analysis of the ended duels only, and the
    page never asks for a live one (the server would answer 409); an intro closes the sheet."""
    context, page, errors = new_page(browser, **PHONE)
    asked = analysis_requests(page)
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    table = Table(quiet, Puppet(quiet.url), ["Ana", "Ben", "Cleo", "Dmitri", "Eve", "Farid"])
    page.goto(table.invite)
    page.wait_for_selector("#members")
    me = Puppet(quiet.url, token=page.evaluate("localStorage.getItem('wt.token')"))
    tid = table.start()
    page.wait_for_function(f"() => location.hash === '#/t/{tid}'", timeout=8_000)
    first = table.wait_round(tid, 1)
    mine = first.duel_of(me.id)
    assert mine is not None
    opponent = table.puppet(mine.opponent(me.id))
    assert opponent is not None
    if mine.players[0] != me.id:
        opponent.play(tid, word(table, mine, 1), duel_id=mine.id)
    me.play(tid, table.secret(tid, mine), duel_id=mine.id)
    others = [d for d in first.duels if d.id != mine.id]
    table.miss(tid, others[0].players[0], 0)  # a live duel with a row on its board
    ended = others[-1]
    table.first_puppet_wins(tid, ended)  # an ended duel of the round being played
    page.wait_for_selector("#waiting")
    page.goto(f"{quiet.url}/#/t/{tid}/story")
    page.wait_for_selector(f"#story-round-1 [data-duel='{ended.id}'] .coach-open")
    assert page.locator(f"#coach-open-{mine.id}").count() == 1
    for duel in others[:-1]:
        assert table.duel_of_id(tid, duel.id).ended_at is None
        assert page.locator(f"#coach-open-{duel.id}").count() == 0
    page.click(f"#coach-open-{ended.id}")
    shows_the_analysis(
        page, me.call("GET", f"/v1/tournaments/{tid}/duels/{ended.id}/analysis"), me.id
    )
    # The round ends while the sheet is open: the next intro (R2) comes first, the sheet goes.
    for duel in others[:-1]:
        table.first_puppet_wins(tid, duel)
    page.wait_for_selector("#coach", state="detached", timeout=10_000)
    wait_until(lambda: table.round(tid).number >= 2, "round 2")
    assert [status for _, status in asked] == [200], asked  # never a 409: never a live duel
    for puppet in table.puppets:
        puppet.leave(tid)
    me.leave(tid)
    assert not errors, errors
    context.close()


def test_d19_a_duel_still_in_play_is_a_short_message(
    quiet: Live, browser: Any, coached: Coached
) -> None:
    """A server that answers 409 duel_in_play all the same (this client never asks for a live
    duel): the sheet says so in a line, with no other try."""
    context, page, errors = signed_in(browser, coached, PHONE)
    body = {"error": {"code": "duel_in_play", "message": "still being played"}}
    page.route(
        "**/analysis",
        lambda route: route.fulfill(
            status=409, content_type="application/json", body=json.dumps(body)
        ),
    )
    page.goto(f"{quiet.url}/#/t/{coached.tid}/story")
    (_, mine) = coached.my_duels()[-1]
    page.click(f"#coach-open-{mine['id']}")
    page.wait_for_selector("#coach #coach-error")
    assert page.locator("#coach-error p").inner_text() == catalogue("en")["error.duel_in_play"]
    assert page.locator("#coach-retry").count() == 0
    context.close()
    assert not [e for e in errors if "409" not in e], errors


# ---------------------------------------------------------------- contrast, motion


MOTION = """() => [...document.querySelectorAll('#coach, #coach *, #your-duels, #your-duels *')]
    .map((el) => getComputedStyle(el))
    .flatMap((s) => [...s.animationDuration.split(','), ...s.transitionDuration.split(',')])
    .map((d) => parseFloat(d) * (d.trim().endsWith('ms') ? 1 : 1000))
    .filter((ms) => ms > 0.01)"""


def test_d19_the_analysis_has_the_contrast_wcag_aa_asks_and_holds_still(
    quiet: Live, browser: Any, coached: Coached
) -> None:
    """Every text of the player's duels and of the open sheet (the explanations unfolded, the
    suggestion's plain tiles included) at AA in the dark and light themes and the colour-blind
    palette over both; with reduced motion asked for, nothing in them moves for longer than
    the 0.01 ms the app's CSS allows."""
    context, page, errors = signed_in(browser, coached, DESKTOP)
    lowest: dict[str, float] = {}
    page.goto(f"{quiet.url}/#/t/{coached.tid}")
    page.wait_for_selector("#results #your-duels .duel-line .dl-skill")
    check(page, "the results with the player's duels", lowest)
    page.locator("#your-duels .duel-line").first.click()
    page.wait_for_selector("#coach #coach-rows")
    page.click("#coach-more summary")
    page.wait_for_selector("#coach-more[open]")
    assert page.locator("#coach .cr-best .mt.suggest").count() > 0  # the plain tiles measured
    check(page, "the analysis", lowest)
    assert lowest and min(lowest.values()) >= 4.5, lowest
    assert page.evaluate(MOTION) == []
    assert not errors, errors
    context.close()


# ---------------------------------------------------------------- every language, 360 px


@pytest.mark.parametrize("code", LOCALES)
def test_d19_the_analysis_reads_well_at_360_px_in_every_language(
    quiet: Live, scrollbars_browser: Any, artifacts: Path, coached: Coached, code: str
) -> None:
    messages = catalogue(code)
    context, page, errors = signed_in(scrollbars_browser, coached, PHONE, code)
    page.goto(f"{quiet.url}/#/t/{coached.tid}")
    page.wait_for_selector("#results #your-duels .duel-line .dl-skill")
    assert page.locator("#your-duels-title").inner_text().lower() == messages["coach.yours"].lower()
    page.locator("#your-duels").scroll_into_view_if_needed()
    readable(page, f"the player's duels in {code}")
    page.locator("#your-duels .duel-line").first.click()
    page.wait_for_selector("#coach #coach-rows")
    assert page.locator("#coach-close").get_attribute("aria-label") == messages["coach.close"]
    explain = page.locator("#coach-explain > p").all_inner_texts()
    assert explain[:2] == [messages["coach.skill.explain"], messages["coach.luck.explain"]]
    try:
        readable(page, f"the analysis in {code}")
        sheet_fits(page, f"the analysis in {code}")
    finally:
        page.screenshot(path=str(artifacts / f"lang-{code}-coach.png"))
        page.locator("#coach-rows .coach-row").last.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"lang-{code}-coach-rows.png"))
    assert not errors, errors
    context.close()
