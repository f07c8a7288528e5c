"""The OpenAPI document matches the app exactly; request logs are JSON lines with a request id."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator

import pytest
from flask import Flask

from api.http import logs
from tests.api.helpers import Game

IGNORED_METHODS = {"HEAD", "OPTIONS"}


def app_routes(app: Flask) -> set[tuple[str, str]]:
    """(OpenAPI path, method) for every API rule: static files and the browser client's pages
    (blueprint `web`) are not part of the API."""
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or rule.endpoint.startswith("web."):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in rule.methods or ():
            if method not in IGNORED_METHODS:
                routes.add((path, method.lower()))
    return routes


def test_openapi_is_3_1_and_matches_every_route(game: Game, app: Flask) -> None:
    r = game.get("/openapi.json")
    assert r.status_code == 200
    doc = r.get_json()
    assert doc["openapi"].startswith("3.1")
    documented = {
        (path, method)
        for path, item in doc["paths"].items()
        for method in item
        if method in {"get", "put", "post", "delete", "patch"}
    }
    routes = app_routes(app)
    assert routes - documented == set(), "routes missing from the OpenAPI document"
    assert documented - routes == set(), "documented operations the app does not have"
    assert ("/v1/tournaments/{tournament_id}/guesses", "post") in routes
    # Every path parameter is declared.
    for path, item in doc["paths"].items():
        names = set(re.findall(r"{([^}]+)}", path))
        for method, op in item.items():
            declared = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert declared == names, (path, method)


def test_openapi_document_is_valid() -> None:
    from openapi_spec_validator import validate

    from api.http.openapi import openapi_document

    validate(openapi_document())


def test_openapi_error_responses_match_the_error_shape(game: Game) -> None:
    doc = game.get("/openapi.json").get_json()
    error = doc["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    assert set(error["properties"]["error"]["required"]) == {"code", "message"}


# ---------------------------------------------------------------------------- logs


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    logger = logging.getLogger("wordle_tournament")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.JsonFormatter())
    logger.addHandler(handler)
    level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_logs_are_json_lines_with_a_request_id(game: Game, log_lines: io.StringIO) -> None:
    p = game.new_player()
    game.get("/v1/me", p, headers={"X-Request-Id": "trace-me-123"})
    r = game.get("/v1/me", p)
    game.get("/v1/nope")
    game.post("/v1/queue", p, data="{")
    lines = [json.loads(line) for line in log_lines.getvalue().splitlines()]
    assert len(lines) == 5
    for entry in lines:
        assert entry["message"] == "request"
        assert entry["level"] == "info"
        assert isinstance(entry["request_id"], str) and entry["request_id"]
        assert {"method", "path", "status", "ms", "time"} <= set(entry)
    created, traced, plain, missing, bad = lines
    assert created["status"] == 201 and created["path"] == "/v1/players"
    assert traced["request_id"] == "trace-me-123" and traced["player_id"] == p.id
    assert plain["request_id"] == r.headers["X-Request-Id"] and plain["player_id"] == p.id
    assert len({e["request_id"] for e in lines}) == 5
    assert missing["status"] == 404 and "player_id" not in missing
    assert bad["status"] == 400
    # An over-long incoming id is replaced, not logged.
    game.get("/v1/health", headers={"X-Request-Id": "x" * 500})
    last = json.loads(log_lines.getvalue().splitlines()[-1])
    assert last["request_id"] != "x" * 500 and 0 < len(last["request_id"]) <= 64


def test_unexpected_errors_are_logged_as_json_and_answered_as_500(
    game: Game, app: Flask, log_lines: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = app.extensions["service"]

    def boom(*args: object) -> None:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(service.queue, "status", boom)
    p = game.new_player()
    r = game.client.get("/v1/queue", headers=p.headers)
    assert r.status_code == 500
    assert r.get_json() == {
        "error": {"code": "internal_error", "message": "something went wrong on our side"}
    }
    assert "kaboom" not in r.get_data(as_text=True)
    entries = [json.loads(line) for line in log_lines.getvalue().splitlines()]
    failure = next(e for e in entries if e["level"] == "error")
    assert "kaboom" in failure["exception"]
    assert failure["request_id"] == r.headers["X-Request-Id"]
