"""Live tournaments: the polled state (ETag, Poll-Interval), guesses, leaving, watching."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, Response, jsonify, request

from api.http.polling import poll_interval
from api.http.requests import body, caller, integer
from api.service import Service
from api.service.tournaments import Snapshot


def _etags(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (weak ones compare by their opaque part)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",")}


def state_response(snapshot: Snapshot, view: dict[str, Any], status: int = 200) -> Response:
    text = "" if status == 304 else json.dumps(view, separators=(",", ":"), ensure_ascii=False)
    return Response(
        text,
        status=status,
        mimetype="application/json",
        headers={
            "ETag": snapshot.etag,
            "Poll-Interval": str(poll_interval(view)),
            "Cache-Control": "no-cache",
        },
    )


def install(app: Flask, service: Service) -> None:
    @app.get("/v1/tournaments/<id(t):tournament_id>/state")
    def tournament_state(tournament_id: str) -> Response:
        snapshot, view = service.tournaments.state(caller(service), tournament_id)
        wanted = request.environ.get("HTTP_IF_NONE_MATCH", "")
        if wanted and (wanted.strip() == "*" or snapshot.etag in _etags(wanted)):
            return state_response(snapshot, view, 304)
        return state_response(snapshot, view)

    @app.post("/v1/tournaments/<id(t):tournament_id>/guesses")
    def guess(tournament_id: str) -> Response:
        player = caller(service)
        data = body()
        snapshot, view = service.tournaments.guess(
            player, tournament_id, integer(data.get("row")), data.get("word"), data.get("duel")
        )
        return state_response(snapshot, view)

    @app.post("/v1/tournaments/<id(t):tournament_id>/leave")
    def leave_tournament(tournament_id: str) -> Response:
        snapshot, view = service.tournaments.leave(caller(service), tournament_id)
        return state_response(snapshot, view)

    @app.get("/v1/tournaments/<id(t):tournament_id>/duels/<duel:duel_id>")
    def watch_duel(tournament_id: str, duel_id: str) -> Response:
        return jsonify(service.tournaments.duel(caller(service), tournament_id, duel_id))
