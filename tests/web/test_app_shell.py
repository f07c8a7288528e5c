"""The installable app, in Debian's chromium: the manifest and the service worker pass Chromium's
installability check, the worker caches the shell and never the API, the offline page shows
when the network is down, and a cached client that meets a newer server reloads into the new
client instead of running against an API it doesn't know.

Installability is read from a persistent profile: Chromium never offers to install from an
incognito-like context, which is what Playwright's `new_context` gives.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from api.web import STATIC, VERSION_HEADER, icons, shell_files, shell_version
from tests.web.conftest import CHROMIUM, CHROMIUM_FLAGS, SHORT, Live, serving
from tests.web.pages import new_page

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def shell() -> Iterator[Live]:
    """A server of its own: the version test "deploys" a new client on it."""
    with serving(SHORT, False) as app:
        yield app


@pytest.fixture
def profile(playwright: Any, tmp_path: Path) -> Iterator[Any]:
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_FLAGS,
        viewport=PHONE,
    )
    try:
        yield context
    finally:
        context.close()


def controlled(page: Any) -> None:
    """Wait until the service worker has installed the shell and controls the page."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15_000)


def cached_urls(page: Any) -> dict[str, list[str]]:
    return dict(
        page.evaluate(
            """async () => {
                const out = {};
                for (const name of await caches.keys()) {
                    const cache = await caches.open(name);
                    out[name] = (await cache.keys()).map((r) => new URL(r.url).pathname);
                }
                return out;
            }"""
        )
    )


def test_the_app_is_installable_and_its_worker_caches_the_shell_never_the_api(
    shell: Live, profile: Any, artifacts: Path
) -> None:
    page = profile.pages[0] if profile.pages else profile.new_page()
    page.goto(shell.url)
    page.wait_for_selector("#play")
    controlled(page)
    cdp = profile.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    assert manifest["url"].endswith("/static/manifest.webmanifest")
    assert cdp.send("Page.getManifestIcons").get("primaryIcon")

    # The shell, whole, in a cache named after its version; no API answer in any cache.
    version = page.evaluate("async () => (await import('/static/version.js')).SHELL_VERSION")
    assert version == shell_version()
    caches = cached_urls(page)
    assert list(caches) == [f"wt-shell-{version}"]
    urls = caches[f"wt-shell-{version}"]
    assert sorted(urls) == shell_files()
    assert "/static/offline.html" in urls and "/static/version.js" in urls
    assert not [u for u in urls if u.startswith("/v1") or u == "/openapi.json"]

    # API requests pass the worker by: each one reaches the server, never a cache.
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if "/v1/me" in r.url else None)
    page.reload()
    page.wait_for_selector("#play")
    served = [r for r in requests if r.endswith("/v1/me")]
    assert served, "GET /v1/me went to the network"
    after = cached_urls(page)
    assert not [u for names in after.values() for u in names if u.startswith("/v1")]
    page.screenshot(path=str(artifacts / "app-home-phone.png"))


def test_the_offline_page_shows_without_a_network_and_the_app_comes_back_with_it(
    shell: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser, **PHONE, locale="ru-RU")
    # The offline page must not rely on the browser's "online" event: when it comes, the service
    # worker may still see the network as down (the reload it triggers then lands on the offline
    # page again, where no second event comes: this test's one failure in 1,408). The event is
    # withheld from the offline page here, so it is the page's own probe of the server that
    # brings the app back.
    page.add_init_script(
        "addEventListener('online', (e) => document.body?.dataset.screen === 'offline'"
        " && e.stopImmediatePropagation(), true)"
    )
    page.goto(shell.url)
    page.wait_for_selector("#play")
    controlled(page)
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-screen='offline']")
    # In the player's language, from the cached catalogues.
    ru = json.loads((STATIC / "i18n" / "ru.json").read_text(encoding="utf-8"))
    page.wait_for_function(
        f"() => document.getElementById('offline-title').textContent === {ru['offline.title']!r}"
    )
    assert page.locator("#offline-retry").inner_text() == ru["offline.retry"]
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the offline page is {width} px wide"
    page.screenshot(path=str(artifacts / "app-offline-ru-phone.png"))
    context.set_offline(False)  # the page goes back to the app by itself, once the server answers
    page.wait_for_selector("#play", timeout=15_000)
    # The network errors of the offline moment are expected; nothing else.
    assert not [e for e in errors if "ERR_INTERNET_DISCONNECTED" not in e], errors
    context.close()


def test_a_cached_client_reloads_into_a_new_version_instead_of_running_against_it(
    shell: Live, browser: Any
) -> None:
    context, page, errors = new_page(browser, **PHONE)
    page.goto(shell.url)
    page.wait_for_selector("#play")
    controlled(page)
    old = shell_version()
    page.evaluate("() => { window.oldPage = true; }")
    try:
        # A deploy: the server now serves another client, and says so on every answer.
        shell.app.config["WEB_CLIENT_VERSION"] = "next-version"
        page.click("#open-stats")  # any API request carries the new version
        page.wait_for_function("() => window.oldPage === undefined", timeout=15_000)
        page.wait_for_selector("#play, #stats")
        running = page.evaluate("async () => (await import('/static/version.js')).SHELL_VERSION")
        assert running == "next-version"
        assert list(cached_urls(page)) == ["wt-shell-next-version"]
        # The new client agrees with the server: it stays (no reload loop).
        page.evaluate("() => { window.newPage = true; }")
        page.click("#tab-history")
        page.wait_for_selector("#history")
        page.wait_for_timeout(500)
        assert page.evaluate("() => window.newPage") is True
    finally:
        shell.app.config.pop("WEB_CLIENT_VERSION", None)
    assert old != "next-version"
    assert not errors, errors
    context.close()


def test_every_answer_names_the_client_version_and_the_worker_is_allowed(shell: Live) -> None:
    client = shell.app.test_client()
    for url in ("/v1/languages", "/", "/sw.js", "/static/version.js"):
        r = client.get(url)
        assert r.status_code == 200, url
        assert r.headers[VERSION_HEADER] == shell_version()
        r.close()
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript"
    assert worker.headers["Cache-Control"] == "no-cache"
    csp = worker.headers["Content-Security-Policy"]
    assert "worker-src 'self'" in csp and "manifest-src 'self'" in csp
    text = worker.get_data(as_text=True)
    assert f'const VERSION = "{shell_version()}";' in text
    assert json.dumps(shell_files()) in text


def test_the_manifest_names_the_app_and_its_icons() -> None:
    manifest = json.loads((STATIC / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {(i["sizes"], i["purpose"]) for i in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any")} <= sizes
    assert {("192x192", "maskable"), ("512x512", "maskable")} <= sizes
    for icon in manifest["icons"]:
        path = STATIC / icon["src"].removeprefix("/static/")
        with Image.open(path) as image:
            assert f"{image.width}x{image.height}" == icon["sizes"]
            assert image.format == "PNG"


def test_the_committed_icons_are_what_the_icon_script_draws() -> None:
    """`python -m api.web.icons` makes them: the same pixels (within rounding, as Pillow's
    resampling may differ by a unit between versions)."""
    for name, drawn in icons.icons().items():
        with Image.open(icons.ICONS / name) as committed:
            difference = ImageChops.difference(committed.convert("RGBA"), drawn.convert("RGBA"))
            worst = max(high for _low, high in difference.getextrema())
            assert worst <= 8, f"{name} differs from the script's drawing by {worst}"
