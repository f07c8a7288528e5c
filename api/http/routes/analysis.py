"""D19: the coach's analysis of an ended duel. The same for good once the duel has ended, so any
client may keep it: `immutable`, with an entity tag naming the analysis method's version. Public
(any cache) once the tournament has finished, private while it is live (only its players may
read it then, so no shared cache may hand it to someone else)."""

from __future__ import annotations

from flask import Flask, Response, after_this_request

from api.http.caching import JSON_ENCODER, not_modified
from api.http.requests import caller
from api.service import Service

MAX_AGE_S = 365 * 86_400
CACHE = f"max-age={MAX_AGE_S}, immutable"


def install(app: Flask, service: Service) -> None:
    @app.get("/v1/tournaments/<id(t):tournament_id>/duels/<duel:duel_id>/analysis")
    def duel_analysis(tournament_id: str, duel_id: str) -> Response:
        @after_this_request
        def no_caching_of_errors(response: Response) -> Response:
            if response.status_code not in (200, 304):  # e.g. a duel still being played
                response.headers["Cache-Control"] = "no-store"
            return response

        coached = service.coach.analysis(
            tournament_id, duel_id, lambda: caller(service, contact=False)
        )
        headers = {
            "ETag": coached.etag,
            "Cache-Control": f"{'public' if coached.public else 'private'}, {CACHE}",
        }
        if not_modified(coached.etag):
            return Response("", status=304, headers=headers)
        text = JSON_ENCODER.encode(coached.make())
        return Response(text, mimetype="application/json", headers=headers)
