"""The records in Debian's chromium, after tournaments played through puppets: statistics,
history (paged with the cursor), leaderboards with the player's rank, the public results of a
finished tournament for someone who never played, and the result to share (R7, R8, R15, R16,
D4). Every screen is compared with the API's own answer, and fits a 360 px phone.

The browser's player plays two tournaments as a puppet (its token then goes to the browser):
the first it goes out of, having won its round-1 duel on its 2nd turn; the second it wins when
everybody else leaves (D8: forfeits, which the guess distribution leaves out). Seven group-mates
walking over is a rating farm's pattern (D19): fair play flags the player, keeping them off the
leaderboards, until an operator clears them, as the fixture does before the boards' refresh.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

import pytest

from api.cli.fairplay import decide
from api.service.fairplay import store as fairplay_store
from tests.web.catalogues import ENGLISH, LOCALES, catalogue
from tests.web.conftest import Live
from tests.web.pages import Shots, new_page
from tests.web.puppets import Puppet, Table
from tests.web.screen_checks import fits, readable_shot, snap, text
from tests.web.share_text import expected_share, ordinal, shows, signed

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}
NAMES = ["Ana", "Ben", "Cleo", "Dmitri", "Eve", "Farid"]


@dataclass
class Played:
    table: Table
    me: Puppet
    token: str
    first: str  # went out of it, having won round 1 on the 2nd turn
    second: str  # won it: everyone else left

    def api(self, path: str) -> Any:
        return self.me.call("GET", path)


def win_on_second_turn(table: Table, tid: str, me: Puppet) -> None:
    duel = table.duel_of(tid, me.id)
    assert duel is not None
    opponent = duel.opponent(me.id)
    if duel.players[0] == me.id:
        me.play(tid, table.filler(duel, 1))
        table.miss(tid, opponent, 2)
    else:
        table.miss(tid, opponent, 1)
        me.play(tid, table.filler(duel, 2))
        table.miss(tid, opponent, 3)
    me.play(tid, table.secret(tid, duel))


def play_out(table: Table, tid: str, me: Puppet) -> None:
    """Round 1: the browser's player wins on its 2nd turn; then it loses every duel until it is
    out, and the first puppet to play wins every other duel."""
    number = 1
    while table.stored(tid).finished_at is None:
        rnd = table.wait_round(tid, number)
        for duel in rnd.duels:
            if table.duel_of_id(tid, duel.id).ended_at is not None:
                continue
            if me.id in duel.players and number == 1:
                win_on_second_turn(table, tid, me)
            elif me.id in duel.players:
                if duel.players[0] == me.id:
                    me.play(tid, table.filler(duel, 1), duel_id=duel.id)
                table.first_puppet_wins(tid, duel)  # me is no puppet: the opponent wins
            else:
                table.first_puppet_wins(tid, duel)
        number += 1


@pytest.fixture(scope="module")
def played(quiet: Live) -> Iterator[Played]:
    me = Puppet(quiet.url, nickname="Rita Records")
    table = Table(quiet, Puppet(quiet.url, nickname="Leader Lea"), NAMES)
    table.add(me)
    table.puppets.remove(me)
    first = table.start()
    play_out(table, first, me)
    second = table.start()
    table.wait_round(second, 1)
    for puppet in table.puppets:
        puppet.leave(second)
    table.wait_finished(second)
    records = fairplay_store(quiet.service.ctx.repo)
    flagged = records.get(me.id)
    assert flagged is not None and flagged.status == "flagged" and "farm" in flagged.reasons
    decide(records, me.id, "clear", "records-test", quiet.service.ctx.now())
    # The sweep renews the leaderboards' snapshot within a minute: now, here.
    quiet.service.leaderboards.refresh()
    yield Played(table, me, str(me.client.token), first, second)


def signed_in(
    browser: Any, played: Played, size: dict[str, int], locale: str = "en-US", **options: Any
) -> tuple[Any, Any, list[str]]:
    context, page, errors = new_page(browser, size["width"], size["height"], locale, **options)
    page.add_init_script(f"localStorage.setItem('wt.token', {played.token!r})")
    return context, page, errors


# ---------------------------------------------------------------- statistics, history, boards


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


# ---------------------------------------------------------------- public results


def went_out(player: dict[str, Any]) -> str:
    """The note under a name on the public results: when the player went out."""
    if player["left"]:
        return str(ENGLISH["t.status.left"])
    if player["out_round"]:
        return str(ENGLISH["story.outIn"]).replace("{n}", str(player["out_round"]))
    return str(ENGLISH["t.status.winner"])


def test_d4_the_public_results_show_every_round_to_someone_who_never_played(
    quiet: Live, browser: Any, artifacts: Path, played: Played
) -> None:
    summary = Puppet(quiet.url).call("GET", f"/v1/tournaments/{played.first}/summary")
    context, page, errors = new_page(browser, **PHONE, color_scheme="dark")
    created: list[str] = []
    page.on("request", lambda r: created.append(r.url) if r.method == "POST" else None)
    page.goto(f"{quiet.url}/#/r/{played.first}")
    page.wait_for_selector("#summary #standings")
    assert page.evaluate("localStorage.getItem('wt.token')") is None
    assert created == [], "a visitor reading a shared link is not made a player"
    rows = page.locator("#standings .standing")
    assert rows.count() == len(summary["players"]) == 8
    for k, player in enumerate(summary["players"]):
        row = rows.nth(k)
        assert row.get_attribute("data-player") == player["id"]
        assert row.locator(".medal").inner_text() == ordinal(player["place"])
        assert row.locator(".delta").inner_text() == signed(player["rating_change"])
        assert player["nickname"] in row.locator(".who-name").inner_text()
        assert row.locator(".who-note").inner_text() == went_out(player)
    rounds = page.locator("#story-rounds .story-round")
    assert rounds.count() == len(summary["rounds"]) == summary["rounds_played"]
    for rnd in summary["rounds"]:
        section = page.locator(f"#story-round-{rnd['number']}")
        duels = section.locator(".story-duel")
        assert duels.count() == len(rnd["duels"])
        for k, duel in enumerate(rnd["duels"]):
            card = duels.nth(k)
            assert card.locator(".msecret .mt").all_inner_texts() == [
                tile.upper() for tile in duel["secret"]
            ]
            assert card.locator(".mrow").count() == len(duel["board"])
    assert page.locator("#share-card").count() == 0  # not theirs to share
    assert page.locator("#summary-invite").is_visible()
    fits(page, "the public results")
    snap(page, artifacts / "records-summary-visitor-phone.png", full=False)
    page.set_viewport_size(DESKTOP)
    snap(page, artifacts / "records-summary-visitor-desktop.png")
    # Their way in: Play makes them a player, now.
    page.click("#summary-play")
    page.wait_for_selector("#play")
    assert page.evaluate("localStorage.getItem('wt.token')")
    # A tournament that does not exist says so.
    page.goto(f"{quiet.url}/#/r/t_nothing")
    page.wait_for_selector("#summary-missing")
    assert "isn't here" in text(page, "#summary-missing p")
    assert not [e for e in errors if "404" not in e], errors
    context.close()


# ---------------------------------------------------------------- share


def test_r7_the_result_is_shared_through_the_clipboard_without_web_share(
    quiet: Live, browser: Any, artifacts: Path, played: Played
) -> None:
    summary = played.api(f"/v1/tournaments/{played.first}/summary")
    want = expected_share(quiet.url, summary, played.me.id)
    assert not re.search(r"[A-Za-z]", "".join(want.splitlines()[2:-1])), "no letters"
    context, page, errors = signed_in(
        browser,
        played,
        PHONE,
        color_scheme="dark",
        permissions=["clipboard-read", "clipboard-write"],
    )
    page.goto(f"{quiet.url}/#/t/{played.first}")
    page.wait_for_selector("#results #share-card #share")
    assert page.evaluate("typeof navigator.share") == "undefined"  # Chromium on Linux
    assert text(page, "#share") == "Copy result"
    shows(page, want)
    # Screen readers hear the result in words, never the squares.
    plain = page.locator("#share-plain").text_content() or ""
    me = next(p for p in summary["players"] if p["id"] == played.me.id)
    assert plain.startswith(f"You finished {ordinal(me['place'])} of 8; your rating went from")
    assert "Round 1: won, in 2 turns." in plain
    assert not re.search("[🟩🟨⬛✅❌]", plain)
    assert page.locator("#share").get_attribute("aria-describedby") == "share-plain"
    page.click("#share")
    page.wait_for_selector("#toast.show")
    assert text(page, "#toast") == "Result copied"
    assert page.evaluate("navigator.clipboard.readText()") == want
    fits(page, "the results with the share card")
    snap(page, artifacts / "records-share-phone.png")
    # The public results link the share names: the same card there, for its player.
    page.click("#public-results")
    page.wait_for_selector(f"#summary[data-tournament='{played.first}'] #share-card")
    shows(page, want)
    assert not errors, errors
    context.close()


def test_r7_the_result_is_shared_through_the_web_share_api_where_there_is_one(
    quiet: Live, browser: Any, played: Played
) -> None:
    summary = played.api(f"/v1/tournaments/{played.first}/summary")
    want = expected_share(quiet.url, summary, played.me.id)
    context, page, errors = signed_in(browser, played, PHONE, color_scheme="dark")
    # A browser with the Web Share API (a phone's): the share sheet, not the clipboard.
    page.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"
        "navigator.clipboard.writeText = () => Promise.reject(new Error('not this way'));"
    )
    page.goto(f"{quiet.url}/#/t/{played.first}")
    page.wait_for_selector("#results #share-card #share")
    assert text(page, "#share") == "Share"
    page.click("#share")
    page.wait_for_function("() => window.shared !== undefined")
    shared = page.evaluate("window.shared")
    assert shared["text"] == want
    assert shared["title"] == "Wordle Tournament"
    assert text(page, "#toast") == "Shared"
    assert not errors, errors
    context.close()


# ---------------------------------------------------------------- other languages, 360 px

SCREENS = ["stats", "history", "leaderboard"]


@pytest.mark.parametrize("code", LOCALES)
def test_d17_the_records_read_well_at_360_px_with_a_scrollbar_in_every_language(
    quiet: Live, scrollbars_browser: Any, artifacts: Path, played: Played, code: str
) -> None:
    messages = catalogue(code)
    context, page, errors = signed_in(scrollbars_browser, played, PHONE, code, color_scheme="dark")
    for screen in SCREENS:
        page.goto(f"{quiet.url}/#/{screen}")
        page.wait_for_selector(f"#{screen} h1")
        assert text(page, f"#{screen} h1") == messages[f"records.{screen}"]
        shot = artifacts / f"lang-{code}-records-{screen}.png"
        readable_shot(page, f"{screen} in {code}", shot, PHONE["width"])
    # Dates: never Chromium's "2026 M12 1" where its Intl lacks the month names.
    page.goto(f"{quiet.url}/#/history")
    page.wait_for_selector("#history-list .history-when")
    for day in page.locator(".history-when").all_inner_texts():
        assert not re.search(r"\bM\d", day), day
    page.goto(f"{quiet.url}/#/r/{played.first}")
    page.wait_for_selector("#summary #share-card")
    assert text(page, "#share") == messages["share.copy"]
    shot = artifacts / f"lang-{code}-records-summary.png"
    readable_shot(page, f"the public results in {code}", shot, PHONE["width"])
    assert not errors, errors
    context.close()
