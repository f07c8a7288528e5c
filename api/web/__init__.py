"""The browser client: static HTML, CSS and ES modules, no build step; an installable app.

It talks only to the public /v1 API, exactly as a mobile app would. This blueprint serves the
page at `/` and its files under `/static/`, and the app's pieces that must live at the root or
carry the shell's version: the service worker (`/sw.js`, scope `/`) and `/static/version.js`.

The shell's version is a hash of every file of the client. It names the service worker's cache,
is baked into `version.js` (cached with the rest of the shell), and every response of the app
carries it in the `Web-Client-Version` header: a cached client that sees another version reloads
into the new one (static/update.js), so it never runs against an API it doesn't know.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory

HERE = Path(__file__).parent
STATIC = HERE / "static"
WORKER = HERE / "sw.js"
VERSION_HEADER = "Web-Client-Version"
# The placeholder that version.js and sw.js carry on disk, filled in when they are served.
PLACEHOLDER = "__SHELL_VERSION__"
FILES_PLACEHOLDER = "__SHELL_FILES__"
# Every file of the shell, as the page asks for it: the worker caches them all when it installs.
# The page itself (`/`) is not among them: it comes from the network, or the offline page does.
OFFLINE_PAGE = "/static/offline.html"

web = Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/static")


def shell_files() -> list[str]:
    return sorted(
        f"/static/{path.relative_to(STATIC).as_posix()}"
        for path in STATIC.rglob("*")
        if path.is_file() and not path.name.startswith(".")
    )


@cache
def shell_version() -> str:
    """A hash of the client's files (and the worker's): it changes with any of them."""
    digest = hashlib.sha256()
    for path in sorted([*STATIC.rglob("*"), WORKER]):
        if path.is_file() and not path.name.startswith("."):
            digest.update(path.relative_to(HERE).as_posix().encode())
            digest.update(b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16]


def current_version() -> str:
    """The version this app serves; `WEB_CLIENT_VERSION` in the app's config overrides the hash
    (the browser tests deploy a "new" client that way)."""
    override = current_app.config.get("WEB_CLIENT_VERSION")
    return str(override) if override else shell_version()


def _no_cache(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-cache"
    return response


@web.get("/")
def index() -> Response:
    return _no_cache(send_from_directory(STATIC, "index.html", max_age=0))


@web.get("/static/version.js")
def version_module() -> Response:
    text = (STATIC / "version.js").read_text(encoding="utf-8")
    body = text.replace(PLACEHOLDER, current_version())
    return _no_cache(Response(body, mimetype="text/javascript"))


@web.get("/sw.js")
def service_worker() -> Response:
    """The service worker at the root, so that its scope is the whole app without a
    Service-Worker-Allowed header. Byte for byte new with every version: that is how the
    browser learns there is a new one."""
    text = WORKER.read_text(encoding="utf-8")
    body = text.replace(PLACEHOLDER, current_version()).replace(
        FILES_PLACEHOLDER, json.dumps(shell_files())
    )
    return _no_cache(Response(body, mimetype="text/javascript"))
