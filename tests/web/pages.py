"""Browser pages for the tests: a new page with the app's checks on it, screenshots, and the
steps several tests share (joining a group by its link). A library, not a test module.

Every page emulates reduced motion (`prefers-reduced-motion: reduce`): the app's CSS then runs
its animations and transitions in 0.01 ms and its JS skips the flip delays (dom.js
`reducedMotion`), so a test never waits a fixed time for an animation to settle.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.puppets import Puppet, Table


def new_page(
    browser: Any, width: int, height: int, locale: str = "en-US", **options: Any
) -> tuple[Any, Any, list[str]]:
    """A page in a context of its own. The browser's preferred language picks the interface
    language (D17): English here, unless a test asks for another. `options` go to the context
    (e.g. color_scheme; reduced_motion="no-preference" to see the animations)."""
    options.setdefault("reduced_motion", "reduce")
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale, **options
    )
    page = context.new_page()
    # The app sends a strict Content-Security-Policy (api/http/app.py): anything it blocks
    # becomes a console error, and so fails the test like any other. (It also forbids eval, so
    # every wait_for_function is an arrow function: Playwright polls a plain expression string
    # through eval.)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'CSP violation: ' + e.effectiveDirective + ' ' + e.blockedURI))"
    )
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # An invalid guess's 422 is expected; any other console error or page error fails the test.
    page.on(
        "console",
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and "status of 422" not in msg.text
            else None
        ),
    )
    page.set_default_timeout(20_000)
    return context, page, errors


class Shots:
    """Screenshots, numbered in the order they were taken."""

    def __init__(self, page: Any, folder: Path, prefix: str) -> None:
        self.page, self.folder, self.prefix = page, folder, prefix
        self.n = 0
        self.taken: list[Path] = []

    def __call__(self, name: str, full: bool = False) -> Path:
        self.n += 1
        path = self.folder / f"{self.prefix}-{self.n:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=full)
        self.taken.append(path)
        return path


def view(page: Any) -> str:
    """The tournament's view on screen (intro, duel, waiting, …), else the screen's name."""
    return str(page.evaluate("document.body.dataset.view || document.body.dataset.screen"))


def join_in_browser(page: Any, table: Table) -> Puppet:
    """The browser's player opens the group's invite link; its own token, as a puppet."""
    page.goto(table.invite)
    page.wait_for_selector("#members")
    token = page.evaluate("localStorage.getItem('wt.token')")
    return Puppet(table.live.url, token=token)
