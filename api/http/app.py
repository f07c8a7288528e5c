"""The Flask application factory and every /v1 route.

Handlers only parse the request, call the service and shape the response; they keep nothing
between requests.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from typing import Any

from flask import Flask, Response, jsonify, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

import wordlists
from api.config import Settings
from api.http import logs
from api.http.openapi import openapi_document
from api.http.polling import poll_interval
from api.service import Service
from api.service import errors as svc
from api.service.context import Context, guarded
from api.service.matchmaking import lobby_view
from api.service.players import profile
from api.service.tournaments import Snapshot
from api.storage.records import GroupRecord, PlayerRecord
from api.web import web

_HTTP_CODES = {
    400: "malformed",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    429: "too_many_requests",
}


REQUEST_ID = "wordle.request_id"
STARTED = "wordle.started"
PLAYER_ID = "wordle.player_id"


def _etags(header: str) -> set[str]:
    """The entity tags of an If-None-Match header (weak ones compare by their opaque part)."""
    return {tag.strip().removeprefix("W/") for tag in header.split(",")}


def error_response(status: int, code: str, message: str, **details: Any) -> Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    response = jsonify({"error": body})
    response.status_code = status
    return response


class _JSONProvider(DefaultJSONProvider):
    """Deeply nested JSON raises RecursionError, which `get_json(silent=True)` would let through
    as a 500: make it the ValueError of any other unparsable body."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError as exc:
            raise ValueError("JSON nested too deeply") from exc


def create_app(service: Service | None = None, settings: Settings | None = None) -> Flask:
    if service is not None:
        settings = service.ctx.settings
    settings = settings or Settings.from_env()
    if service is None:
        from api.storage.dynamo import DynamoRepository

        service = Service(Context(DynamoRepository(settings), settings))
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024
    app.json = _JSONProvider(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["service"] = service
    log = logs.configure()
    _install_hooks(app, log)
    _install_errors(app, log)
    _install_routes(app, service)
    app.register_blueprint(web)  # the browser client at / and /static/
    return app


def _install_hooks(app: Flask, log: logging.Logger) -> None:
    # Per-request facts live in the WSGI environ, set by a plain WSGI wrapper: cheaper than
    # `g` and a before_request hook on the poll path.
    inner = app.wsgi_app

    def stamped(environ: dict[str, Any], start_response: Any) -> Any:
        incoming = environ.get("HTTP_X_REQUEST_ID", "")
        environ[REQUEST_ID] = incoming if 0 < len(incoming) <= 64 else secrets.token_hex(16)
        environ[STARTED] = time.perf_counter()
        return inner(environ, start_response)

    app.wsgi_app = stamped  # type: ignore[method-assign]

    @app.after_request
    def finish(response: Response) -> Response:
        environ = request.environ
        response.headers["X-Request-Id"] = environ.get(REQUEST_ID, "")
        if log.isEnabledFor(logging.INFO):
            started = environ.get(STARTED, time.perf_counter())
            fields = {
                "request_id": environ.get(REQUEST_ID),
                "method": environ.get("REQUEST_METHOD"),
                "path": environ.get("PATH_INFO"),
                "status": response.status_code,
                "ms": round((time.perf_counter() - started) * 1000, 2),
            }
            if PLAYER_ID in environ:
                fields["player_id"] = environ[PLAYER_ID]
            log.info("request", extra={"fields": fields})
        return response


def _install_errors(app: Flask, log: logging.Logger) -> None:
    @app.errorhandler(svc.ServiceError)
    def service_error(exc: svc.ServiceError) -> Response:
        response = error_response(exc.status, exc.code, exc.message, **exc.details)
        if isinstance(exc, svc.RetryLater):
            response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        status = exc.code or 500
        return error_response(status, _HTTP_CODES.get(status, "error"), exc.description or "")

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.error(
            "unhandled error",
            exc_info=exc,
            extra={"fields": {"request_id": request.environ.get(REQUEST_ID)}},
        )
        return error_response(500, "internal_error", "something went wrong on our side")


def _body() -> dict[str, Any]:
    data = request.get_json(force=True, silent=True)
    if not isinstance(data, dict):
        raise svc.BadRequest("the request body must be a JSON object")
    return data


def _install_routes(app: Flask, service: Service) -> None:
    def me() -> PlayerRecord:
        player = service.players.authenticate(request.environ.get("HTTP_AUTHORIZATION"))
        request.environ[PLAYER_ID] = player.id
        return player

    def group_json(record: GroupRecord | None, player: PlayerRecord) -> Response:
        if record is None:
            return Response(status=204)
        return jsonify(service.groups.view(player, record.id))

    def state_response(snapshot: Snapshot, view: dict[str, Any], status: int = 200) -> Response:
        body = "" if status == 304 else json.dumps(view, separators=(",", ":"), ensure_ascii=False)
        return Response(
            body,
            status=status,
            mimetype="application/json",
            headers={
                "ETag": snapshot.etag,
                "Poll-Interval": str(poll_interval(view)),
                "Cache-Control": "no-cache",
            },
        )

    @app.get("/openapi.json")
    def openapi() -> Response:
        return jsonify(openapi_document())

    @app.get("/v1/health")
    def health() -> Response:
        guarded(service.ctx.repo.ping)
        return jsonify({"status": "ok", "time": service.ctx.now()})

    @app.get("/v1/languages")
    def languages() -> Response:
        return jsonify(
            {
                "languages": [
                    {
                        "code": lang.code,
                        "english_name": lang.english_name,
                        "native_name": lang.native_name,
                        "tiles": list(lang.tiles),
                        "keyboard": [list(row) for row in lang.keyboard],
                    }
                    for lang in wordlists.LANGUAGES.values()
                ],
                "word_lengths": list(wordlists.LENGTHS),
            }
        )

    @app.post("/v1/players")
    def create_player() -> tuple[Response, int]:
        body = request.get_json(force=True, silent=True)  # optional: {"bot": true, "rating": n}
        bot, rating = False, None
        if isinstance(body, dict) and body.get("bot") is not None:
            if not isinstance(body["bot"], bool):
                raise svc.BadRequest("bot must be true or false")
            bot = body["bot"]
        if bot:
            service.players.check_bot_key(request.headers.get("X-Bot-Key"))
            rating = (body or {}).get("rating")
            if rating is not None and (
                isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 4000
            ):
                raise svc.BadRequest("rating must be an integer from 0 to 4000")
        player, token = service.players.create(request.remote_addr or "unknown", bot, rating)
        return jsonify({**profile(player), "token": token}), 201

    @app.get("/v1/me")
    def get_me() -> Response:
        return jsonify(profile(me()))

    @app.patch("/v1/me")
    def patch_me() -> Response:
        player = me()
        body = _body()
        if "nickname" not in body:
            raise svc.BadRequest("send the new nickname as {'nickname': ...}")
        return jsonify(profile(service.players.rename(player, body["nickname"])))

    @app.post("/v1/queue")
    def join_queue() -> tuple[Response, int]:
        player = me()
        record = service.queue.join(player, _body().get("language"))
        return jsonify(lobby_view(record)), 201

    @app.get("/v1/queue")
    def queue_status() -> Response:
        return jsonify(service.queue.status(me()))

    @app.delete("/v1/queue")
    def leave_queue() -> Response:
        service.queue.leave(me())
        return Response(status=204)

    @app.get("/v1/lobbies/<lobby_id>")
    def get_lobby(lobby_id: str) -> Response:
        return jsonify(service.queue.lobby(me(), lobby_id))

    @app.post("/v1/groups")
    def create_group() -> tuple[Response, int]:
        player = me()
        record = service.groups.create(player, _body().get("language"))
        return group_json(record, player), 201

    @app.post("/v1/groups/join")
    def join_group() -> Response:
        player = me()
        return group_json(service.groups.join(player, _body().get("invite_code")), player)

    @app.get("/v1/groups/<group_id>")
    def get_group(group_id: str) -> Response:
        return jsonify(service.groups.view(me(), group_id))

    @app.post("/v1/groups/<group_id>/start")
    def start_group(group_id: str) -> tuple[Response, int]:
        return jsonify(lobby_view(service.groups.start(me(), group_id))), 201

    @app.post("/v1/groups/<group_id>/invite")
    def new_invite(group_id: str) -> Response:
        player = me()
        return group_json(service.groups.new_invite(player, group_id), player)

    @app.delete("/v1/groups/<group_id>/members/<member_id>")
    def remove_member(group_id: str, member_id: str) -> Response:
        player = me()
        record = service.groups.remove(player, group_id, member_id)
        if record is None or member_id == player.id:
            return Response(status=204)
        return group_json(record, player)

    @app.get("/v1/tournaments/<tournament_id>/state")
    def tournament_state(tournament_id: str) -> Response:
        snapshot, view = service.tournaments.state(me(), tournament_id)
        wanted = request.environ.get("HTTP_IF_NONE_MATCH", "")
        if wanted and (wanted.strip() == "*" or snapshot.etag in _etags(wanted)):
            return state_response(snapshot, view, 304)
        return state_response(snapshot, view)

    @app.post("/v1/tournaments/<tournament_id>/guesses")
    def guess(tournament_id: str) -> Response:
        player = me()
        body = _body()
        snapshot, view = service.tournaments.guess(
            player, tournament_id, body.get("row"), body.get("word"), body.get("duel")
        )
        return state_response(snapshot, view)

    @app.post("/v1/tournaments/<tournament_id>/leave")
    def leave_tournament(tournament_id: str) -> Response:
        snapshot, view = service.tournaments.leave(me(), tournament_id)
        return state_response(snapshot, view)

    @app.get("/v1/tournaments/<tournament_id>/duels/<duel_id>")
    def watch_duel(tournament_id: str, duel_id: str) -> Response:
        return jsonify(service.tournaments.duel(me(), tournament_id, duel_id))
