"""The OpenAPI document matches the app exactly; request logs are JSON lines with a request id."""

from __future__ import annotations

import io
import json
import re
import zlib

import pytest
from flask import Flask

from api.http import logs
from tests.api.game import Game

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


def test_logs_are_json_lines_with_a_request_id(game: Game, log_lines: io.StringIO) -> None:
    p = game.new_player()
    sent = game.post(
        "/v1/queue", p, json={"language": "en"}, headers={"X-Request-Id": "trace-me-123"}
    )
    r = game.delete("/v1/queue", p)
    game.get("/v1/nope")
    game.post("/v1/queue", p, data="{")
    lines = [json.loads(line) for line in log_lines.getvalue().splitlines()]
    assert len(lines) == 5
    for entry in lines:
        assert entry["message"] == "request"
        assert entry["level"] == "info"
        assert re.fullmatch(r"[0-9a-f]{32}", entry["request_id"])  # the server's own
        assert {"method", "path", "status", "ms", "time"} <= set(entry)
    created, traced, plain, missing, bad = lines
    assert created["status"] == 201 and created["path"] == "/v1/players"
    # A client's id is logged beside the server's, which the answer carries.
    assert traced["client_request_id"] == "trace-me-123" and traced["player_id"] == p.id
    assert traced["request_id"] == sent.headers["X-Request-Id"] != "trace-me-123"
    assert plain["request_id"] == r.headers["X-Request-Id"] and plain["player_id"] == p.id
    assert "client_request_id" not in plain
    assert len({e["request_id"] for e in lines}) == 5
    assert missing["status"] == 404 and "player_id" not in missing
    assert bad["status"] == 400
    # An over-long or odd incoming id is not logged at all.
    for odd in ("x" * 65, 'a"b', "a b", "<x>", "ü"):
        game.post("/v1/queue", p, data="{", headers={"X-Request-Id": odd})
        last = json.loads(log_lines.getvalue().splitlines()[-1])
        assert "client_request_id" not in last and len(last["request_id"]) == 32


def test_successful_reads_are_sampled_errors_and_slow_requests_always_logged(
    game: Game, log_lines: io.StringIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Polls are most requests and CloudWatch Logs bills every byte: a successful read (a poll,
    200 or 304) is logged once in READ_SAMPLE, chosen by the server's request id. A client
    cannot choose to be logged, or not: its own X-Request-Id plays no part."""
    monkeypatch.setattr(logs, "SLOW_MS", float("inf"))  # a loaded machine makes no read slow here
    players = game.new_players(8)
    tid = game.queue(players)
    lines = len(log_lines.getvalue().splitlines())
    url = f"/v1/tournaments/{tid}/state"
    etag = game.get(url, players[0]).headers["ETag"]
    # Ids that decided sampling before (crc32 % READ_SAMPLE == 0), sent on every request.
    chosen = [i for i in range(10_000) if zlib.crc32(f"trace-{i}".encode()) % logs.READ_SAMPLE == 0]
    answered = []
    for i in range(60):
        sent = {"X-Request-Id": f"trace-{chosen[i % len(chosen)]}"}
        poll = game.get(url, players[0], headers={"If-None-Match": etag, **sent})
        me = game.get("/v1/me", players[0], headers=sent)
        assert (poll.status_code, me.status_code) == (304, 200)
        answered += [poll.headers["X-Request-Id"], me.headers["X-Request-Id"]]
    sampled = [i for i in answered if zlib.crc32(i.encode()) % logs.READ_SAMPLE == 0]
    game.get(f"/v1/tournaments/{tid}/nope", players[0])
    assert game.get("/v1/tournaments/t_nope/state", players[0]).status_code == 404
    entries = [json.loads(line) for line in log_lines.getvalue().splitlines()[lines:]]
    logged = [e["request_id"] for e in entries]
    assert logged[: len(sampled)] == sampled and len(sampled) < 12  # about 1 of 120
    assert all(e["sample"] == logs.READ_SAMPLE for e in entries[: len(sampled)])
    assert [e["status"] for e in entries[len(sampled) :]] == [404, 404]
    assert all("sample" not in e for e in entries[len(sampled) :])
    # A slow read is logged, as a warning, whatever its id.
    monkeypatch.setattr(logs, "SLOW_MS", 0.0)
    r = game.get(url, players[0], headers={"If-None-Match": etag, "X-Request-Id": "poll-slow"})
    slow = json.loads(log_lines.getvalue().splitlines()[-1])
    assert (slow["request_id"], slow["client_request_id"], slow["level"], slow["message"]) == (
        r.headers["X-Request-Id"],
        "poll-slow",
        "warning",
        "slow request",
    )


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
