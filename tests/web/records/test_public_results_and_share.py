"""The results of a finished tournament in Debian's chromium: public, for someone who never
played, and the result to share through the clipboard or the Web Share API (D4, R7, R8).
Every screen is compared with the API's own answer, and fits a 360 px phone. The tournaments
played: tests/web/records/conftest.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.catalogues import ENGLISH
from tests.web.conftest import Live
from tests.web.pages import new_page
from tests.web.puppets import Puppet
from tests.web.records.conftest import DESKTOP, PHONE, Played, signed_in
from tests.web.screen_checks import fits, snap, text
from tests.web.share_text import expected_share, ordinal, shows, signed, your_duels

pytestmark = pytest.mark.slow


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


def coached(played: Played, summary: Any) -> list[Any]:
    """The coach's analyses of the player's duels in `summary` (D19: the share's skill)."""
    tid = summary["id"]
    return [
        played.api(f"/v1/tournaments/{tid}/duels/{duel['id']}/analysis")
        for duel in your_duels(summary, played.me.id)
    ]


def test_r7_the_result_is_shared_through_the_clipboard_without_web_share(
    quiet: Live, browser: Any, artifacts: Path, played: Played
) -> None:
    summary = played.api(f"/v1/tournaments/{played.first}/summary")
    want = expected_share(quiet.url, summary, played.me.id, coached(played, summary))
    assert want.splitlines()[2].startswith("Skill ")  # D19: the skill of the player's words
    assert not re.search(r"[A-Za-z]", "".join(want.splitlines()[3:-1])), "no letters"
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
    want = expected_share(quiet.url, summary, played.me.id, coached(played, summary))
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
