"""The records in every language (D17) in Debian's chromium with classic scrollbars: the
statistics, the history and the leaderboard, and the public results, at 360 px. The
tournaments played: tests/web/records/conftest.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.catalogues import LOCALES, catalogue
from tests.web.conftest import Live
from tests.web.records.conftest import PHONE, Played, signed_in
from tests.web.screen_checks import readable_shot, text

pytestmark = pytest.mark.slow


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
