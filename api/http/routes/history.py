"""Players' history and statistics, tournaments' public results, leaderboards."""

from __future__ import annotations

from flask import Flask, Response, after_this_request, request

from api.http.caching import JSON_ENCODER, not_modified
from api.http.requests import caller
from api.service import Service
from api.service import errors as svc
from api.service.history import MAX_PAGE, PAGE

# A finished tournament's results never change: any cache may keep them (a day, then it asks
# again with If-None-Match).
SUMMARY_CACHE = "public, max-age=86400"
# Anonymous leaderboards are the same for everyone until the next snapshot.
BOARD_CACHE = "public, max-age=30"


def _only(*names: str) -> None:
    """Query parameters other than `names` are a 400, like unknown fields of a body."""
    unknown = sorted(set(request.args) - set(names))
    if unknown:
        raise svc.BadRequest(f"unknown query parameter(s): {', '.join(unknown)[:200]}")


def _page_size() -> int:
    raw = request.args.get("limit")
    if raw is None:
        return PAGE
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        raise svc.BadRequest(f"limit must be an integer from 1 to {MAX_PAGE}")
    return int(raw)


def _json(data: object, headers: dict[str, str], status: int = 200) -> Response:
    text = "" if status == 304 else JSON_ENCODER.encode(data)
    return Response(text, status=status, mimetype="application/json", headers=headers)


def install(app: Flask, service: Service) -> None:
    @app.get("/v1/me/history")
    def my_history() -> Response:
        _only("cursor", "limit")
        player = caller(service)
        page = service.history.page(player, request.args.get("cursor"), _page_size())
        return _json(page, {"Cache-Control": "private, no-cache"})

    @app.get("/v1/me/stats")
    def my_stats() -> Response:
        _only()
        stats = service.history.stats(caller(service))
        return _json(stats, {"Cache-Control": "private, no-cache"})

    @app.get("/v1/tournaments/<id(t):tournament_id>/summary")
    def tournament_summary(tournament_id: str) -> Response:
        @after_this_request
        def no_caching_of_errors(response: Response) -> Response:
            if response.status_code not in (200, 304):  # e.g. not finished yet
                response.headers["Cache-Control"] = "no-store"
            return response

        _only()
        version, summary = service.tournaments.summary(tournament_id)
        etag = f'"s{version}"'
        headers = {"ETag": etag, "Cache-Control": SUMMARY_CACHE}
        return _json(summary, headers, 304 if not_modified(etag) else 200)

    @app.get("/v1/leaderboard")
    def leaderboard() -> Response:
        _only("language")
        language = request.args.get("language")
        signed_in = "HTTP_AUTHORIZATION" in request.environ
        player = caller(service) if signed_in else None
        view, etag = service.leaderboards.board(language, player)
        if signed_in:  # with the caller's own rank
            return _json(view, {"Cache-Control": "private, no-cache", "Vary": "Authorization"})
        headers = {"ETag": etag, "Cache-Control": BOARD_CACHE, "Vary": "Authorization"}
        return _json(view, headers, 304 if not_modified(etag) else 200)
