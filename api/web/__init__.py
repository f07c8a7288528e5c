"""The browser client: static HTML, CSS and ES modules, no build step.

It talks only to the public /v1 API, exactly as a mobile app would. This blueprint serves the
page at `/` and its files under `/static/`.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

STATIC = Path(__file__).parent / "static"

web = Blueprint("web", __name__, static_folder=str(STATIC), static_url_path="/static")


@web.get("/")
def index() -> Response:
    response = send_from_directory(STATIC, "index.html", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response
