"""The browser client's files, without a browser: served by the app, every ES module
import resolves (there is no build step to catch a typo), and every interface string the code
asks for is in the one strings module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from api.web import STATIC

MODULES = sorted(STATIC.rglob("*.js"))


@pytest.fixture
def client() -> FlaskClient:
    service = Service(Context(InMemoryRepository(), Settings(rate_limits=False)))
    return create_app(service).test_client()


def test_the_page_is_served_at_the_root(client: FlaskClient) -> None:
    r = client.get("/")
    assert r.status_code == 200
    assert r.mimetype == "text/html"
    assert b'<script type="module" src="/static/app.js">' in r.data


@pytest.mark.parametrize("name", ["app.js", "css/base.css", "screens/tournament.js"])
def test_assets_are_served_under_static(client: FlaskClient, name: str) -> None:
    r = client.get(f"/static/{name}")
    assert r.status_code == 200
    assert r.mimetype in ("text/javascript", "application/javascript", "text/css")
    r.close()


def test_the_api_is_untouched_by_the_client(client: FlaskClient) -> None:
    assert client.get("/v1/languages").status_code == 200
    r = client.get("/static/nothing-here.js")
    assert r.status_code == 404


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(STATIC)))
def test_every_module_import_resolves(module: Path) -> None:
    for target in re.findall(
        r'^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"', module.read_text(), re.M
    ):
        assert (module.parent / target).resolve().is_file(), f"{module.name} imports {target}"


def _imports(module: Path) -> list[Path]:
    pattern = r'^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"'
    return [(module.parent / t).resolve() for t in re.findall(pattern, module.read_text(), re.M)]


def test_the_modules_import_no_cycle() -> None:
    """Screens import shared modules, never the other way round (routes.js imports the screens;
    a screen that needs an address imports paths.js)."""
    graph = {module.resolve(): _imports(module) for module in MODULES}
    done: set[Path] = set()

    def visit(module: Path, path: tuple[Path, ...]) -> None:
        if module in path:
            cycle = " → ".join(p.name for p in (*path[path.index(module) :], module))
            pytest.fail(f"import cycle: {cycle}")
        if module in done:
            return
        for target in graph.get(module, []):
            visit(target, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())
