"""The records in Debian's chromium: the statistics (R16), the history, newest first and paged
with the cursor, each line linking to its results (R16), and the leaderboards with the player's
rank highlighted (R15). Every screen is compared with the API's own answer, and fits a 360 px
phone. The tournaments played: tests/web/records/conftest.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest

from tests.web.conftest import Live
from tests.web.pages import Shots
from tests.web.records.conftest import DESKTOP, PHONE, Played, signed_in
from tests.web.screen_checks import fits, snap, text
from tests.web.share_text import ordinal, signed

pytestmark = pytest.mark.slow


def test_r16_the_statistics_show_what_was_played(
    quiet: Live, browser: Any, artifacts: Path, played: Played
) -> None:
    stats = played.api("/v1/me/stats")
    assert stats["tournaments_played"] == 2 and stats["wins"] == 1
    assert stats["guesses"][1] >= 1  # round 1 of the first, on the 2nd turn
    context, page, errors = signed_in(browser, played, DESKTOP, color_scheme="dark")
    shot = Shots(page, artifacts, "records-stats")
    page.goto(quiet.url)
    page.click("#open-stats")  # reachable from home
    page.wait_for_selector("#stats #distribution")
    assert page.evaluate("location.hash") == "#/stats"
    assert text(page, "#stat-played dd") == str(stats["tournaments_played"])
    assert text(page, "#stat-wins dd") == str(stats["wins"])
    assert text(page, "#stat-podiums dd") == str(stats["podiums"])
    assert text(page, "#stat-average dd") == f"{stats['average_place']:g}"
    assert text(page, "#stat-streak dd") == str(stats["win_streak"]["current"])
    assert text(page, "#stat-best-streak dd") == str(stats["win_streak"]["best"])
    assert text(page, "#stat-rating dd") == str(stats["rating"])
    bars = page.locator("#distribution .dist-bar").all_inner_texts()
    assert [int(b) for b in bars] == stats["guesses"]
    assert page.locator("#distribution .dist-row.most").count() >= 1
    duels = stats["duels"]
    assert text(page, "#duels-won dd") == str(duels["won"])
    assert text(page, "#duels-drawn dd") == str(duels["drawn"])
    assert text(page, "#duels-lost dd") == str(duels["lost"])
    chart = page.locator("#rating-chart")
    assert chart.locator("circle").count() == len(stats["rating_history"]) == 3
    assert chart.get_attribute("role") == "img"
    last = stats["rating_history"][-1]["rating"]
    assert f"to {last}" in (chart.get_attribute("aria-label") or "")
    shot("desktop-dark")
    page.emulate_media(color_scheme="light")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    shot("desktop-light")
    page.set_viewport_size(PHONE)
    fits(page, "the statistics")
    shot("phone-light")
    assert not errors, errors
    context.close()


def test_r16_the_history_lists_the_tournaments_newest_first_each_linking_to_its_results(
    quiet: Live, browser: Any, artifacts: Path, played: Played
) -> None:
    entries = played.api("/v1/me/history")["entries"]
    assert [e["tournament_id"] for e in entries] == [played.second, played.first]
    context, page, errors = signed_in(browser, played, PHONE, color_scheme="dark")
    page.goto(f"{quiet.url}/#/history")
    page.wait_for_selector("#history-list .history-line")
    lines = page.locator("#history-list .history-line")
    assert lines.count() == len(entries)
    assert page.locator("#history-more").is_hidden()
    for k, entry in enumerate(entries):
        line = lines.nth(k)
        assert line.get_attribute("data-tournament") == entry["tournament_id"]
        assert line.locator("a").get_attribute("href") == f"#/r/{entry['tournament_id']}"
        assert line.locator(".medal").inner_text() == ordinal(entry["place"])
        change = line.locator(".delta").inner_text()
        assert change == signed(entry["rating_change"])
        move = f"{entry['rating_before']} → {entry['rating_after']}"
        assert line.locator(".move").inner_text() == move
        duels = entry["duels"]
        assert f"{duels['won']} won, {duels['drawn']} drawn, {duels['lost']} lost" in (
            line.inner_text()
        )
    fits(page, "the history")
    snap(page, artifacts / "records-history-phone.png")
    # A line opens the tournament's public results.
    lines.nth(1).locator("a").click()
    page.wait_for_selector(f"#summary[data-tournament='{played.first}']")
    assert not errors, errors
    context.close()


def test_r16_the_history_pages_with_the_cursor(quiet: Live, browser: Any, played: Played) -> None:
    """A page of one line here (the request rewritten on its way; no service worker, which
    would hide requests from Playwright's routing): the second page comes with the cursor."""
    context, page, errors = signed_in(browser, played, PHONE, service_workers="block")
    asked: list[dict[str, list[str]]] = []

    def one_a_page(route: Any) -> None:
        parts = urlsplit(route.request.url)
        query = parse_qs(parts.query)
        asked.append(query)
        query["limit"] = ["1"]
        route.continue_(url=urlunsplit(parts._replace(query=urlencode(query, doseq=True))))

    page.route(re.compile(r".*/v1/me/history.*"), one_a_page)
    page.goto(f"{quiet.url}/#/history")
    page.wait_for_selector("#history-list .history-line")
    assert page.locator("#history-list .history-line").count() == 1
    assert page.locator(f".history-line[data-tournament='{played.second}']").count() == 1
    page.click("#history-more")
    page.wait_for_selector(f".history-line[data-tournament='{played.first}']")
    assert page.locator("#history-list .history-line").count() == 2
    assert "cursor" not in asked[0] and asked[1]["cursor"][0]
    page.wait_for_selector("#history-more", state="hidden")  # the last page has no cursor
    assert page.evaluate("document.activeElement.closest('.history-line')?.dataset.tournament") == (
        played.first
    )
    assert not errors, errors
    context.close()


def test_r15_the_leaderboards_show_the_players_rank_highlighted(
    quiet: Live, browser: Any, artifacts: Path, played: Played
) -> None:
    board = played.api("/v1/leaderboard")
    english = played.api("/v1/leaderboard?language=en")
    assert board["you"]["rank"] is not None and english["you"]["rank"] is not None
    context, page, errors = signed_in(browser, played, DESKTOP, color_scheme="dark")
    page.goto(f"{quiet.url}/#/stats")
    page.wait_for_selector("#stats")
    page.click("#tab-leaderboard")
    page.wait_for_selector("#leaderboard[data-board='all'] #your-rank")

    def check(answer: dict[str, Any]) -> None:
        you = answer["you"]
        players = max(answer["players"], you["rank"])
        noun = "player" if players == 1 else "players"
        assert text(page, "#your-rank") == (
            f"You're number {you['rank']} of {players} {noun} · rating {you['rating']}"
        )
        lines = page.locator("#ranking .ranking-line")
        top = answer["top"]
        in_top = any(line["player_id"] == played.me.id for line in top)
        assert lines.count() == len(top) + (0 if in_top else 1)
        for k, line in enumerate(top):
            assert lines.nth(k).get_attribute("data-player") == line["player_id"]
            assert lines.nth(k).locator(".ranking-rank").inner_text() == str(line["rank"])
            assert lines.nth(k).locator(".ranking-rating").inner_text() == str(line["rating"])
        mine = page.locator(f"#ranking .ranking-line.you[data-player='{played.me.id}']")
        assert mine.count() == 1  # in the top, or after it with the rank
        assert mine.locator(".ranking-rank").inner_text() == str(you["rank"])
        assert "(you)" in mine.inner_text()

    check(board)
    snap(page, artifacts / "records-leaderboard-desktop.png")
    page.select_option("#board-language", "en")
    page.wait_for_function("() => location.hash === '#/leaderboard/en'")
    page.wait_for_selector("#leaderboard[data-board='en'] #your-rank")
    check(english)
    page.set_viewport_size(PHONE)
    fits(page, "the leaderboard")
    snap(page, artifacts / "records-leaderboard-phone.png")
    assert not errors, errors
    context.close()
