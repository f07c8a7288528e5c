"""A refused player creation (POST /v1/players answers 429: the server's budgets for new players,
per address, per network or for everyone), in Debian's chromium: the page says why and when it
tries again, in the player's language, counts down, and tries again by itself at that time —
never a spinner with "Connection lost — retrying…". Any 429 of the creation is handled so,
whatever its code.

The refusals are the browser's own (Playwright answers the first creations itself), so that the
test decides exactly which refusal comes and how long it asks to wait; the creation that follows
reaches the real server.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.catalogues import catalogue, forms
from tests.web.conftest import Live
from tests.web.pages import new_page
from tests.web.screen_checks import readable

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}


def refuse(page: Any, answers: list[tuple[int, dict[str, Any]]]) -> list[float]:
    """The page's next creations get `answers` (Retry-After, the error's JSON), one each; the
    one after reaches the server. Returns when each creation was asked for."""
    asked: list[float] = []

    def handle(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        asked.append(time.monotonic())
        if len(asked) > len(answers):
            route.continue_()
            return
        retry, error = answers[len(asked) - 1]
        route.fulfill(
            status=429,
            headers={"Retry-After": str(retry), "Content-Type": "application/json"},
            body=json.dumps({"error": error}),
        )

    page.route("**/v1/players", handle)
    return asked


@pytest.mark.parametrize("code", ["en", "ru", "kk"])
def test_a_refused_creation_says_why_and_when_and_tries_again_by_itself(
    quiet: Live, browser: Any, artifacts: Path, code: str
) -> None:
    messages = catalogue(code)
    context, page, errors = new_page(browser, **PHONE, locale=code)
    asked = refuse(
        page,
        [
            (
                2,
                {
                    "code": "too_many_new_players",
                    "message": "too many new players from your address; try again in 2 s",
                    "details": {"scope": "address", "retry_after": 2},
                },
            ),
            (1, {"code": "slow_down", "message": "another code, still a 429 of the creation"}),
        ],
    )
    page.goto(quiet.url)
    page.wait_for_selector("#create-limited")
    assert page.locator("#create-title").inner_text() == messages["create.title"]
    assert page.locator("#create-why").inner_text() == messages["create.why.address"]
    assert page.locator("#create-wait").inner_text() in {
        text.replace("{n}", str(n)) for n in (1, 2) for text in forms(messages["create.wait"])
    }
    # A refusal, not a lost connection: no offline note, no spinner.
    assert not page.evaluate("document.body.classList.contains('offline')")
    assert page.locator(".spinner").count() == 0
    readable(page, f"the refused creation in {code}")
    page.screenshot(path=str(artifacts / f"lang-{code}-creation-refused.png"))

    # The second refusal has another code: the general words, and its own wait.
    page.wait_for_function(
        f"() => document.getElementById('create-why')?.textContent === {messages['create.why']!r}"
    )
    page.wait_for_selector("#play", timeout=10_000)  # the third creation reaches the server
    assert len(asked) == 3
    assert asked[1] - asked[0] >= 1.9  # not before Retry-After
    assert asked[2] - asked[1] >= 0.9
    assert page.evaluate("localStorage.getItem('wt.token')")
    # The two 429s are console errors of the page's own requests; nothing else may go wrong.
    assert all("status of 429" in e for e in errors), errors
    context.close()
