"""The Flask application factory: hooks, JSON errors, and the routes of `api.http.routes`.

Handlers keep nothing between requests.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from flask import Flask, Response, jsonify, request
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import HTTPException

from api.http import limits, logs, routes
from api.http.requests import CALLER, PLAYER_ID
from api.service import Service, where
from api.service import errors as svc
from api.service.health import Health
from api.storage import repository as storage
from api.web import VERSION_HEADER, current_version, web

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
CONTENDED = "contended"  # the cause of a 503 `busy`: every attempt lost a race

# RFC 6750: a 401 names the scheme; a token that was sent but does not work says so.
_REALM = 'Bearer realm="wordle-tournament"'
# Every response: no MIME sniffing, no framing. The API's JSON needs nothing else.
API_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
# The browser client (api/web): its own scripts, styles and requests only (ES modules, no
# inline script or style element), the favicon as a data: SVG, its manifest and its service
# worker. The token lives in localStorage, so no third-party script may ever run beside it.
WEB_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


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


def create_app(service: Service) -> Flask:
    """The app over `service` (api/bootstrap.py builds both from the settings)."""
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024
    app.json = _JSONProvider(app)
    app.json.sort_keys = False
    app.extensions["service"] = service
    app.extensions["health"] = Health(service.ctx.repo, service.ctx.now)  # /v1/health's
    log = logs.configure()
    _install_hooks(app, log)
    _install_errors(app, log)
    limits.install(app, service)
    routes.install(app, service)
    app.register_blueprint(web)  # the browser client at / and /static/
    return app


def _install_hooks(app: Flask, log: logging.Logger) -> None:
    # Per-request facts live in the WSGI environ, set by a plain WSGI wrapper: cheaper than
    # `g` and a before_request hook on the poll path.
    inner = app.wsgi_app

    def stamped(environ: dict[str, Any], start_response: Any) -> Any:
        # The id is always the server's own: a client's X-Request-Id is only logged beside it
        # (it must not choose which of its reads are sampled into the log).
        environ[REQUEST_ID] = secrets.token_hex(16)
        environ[STARTED] = time.perf_counter()
        return inner(environ, start_response)

    app.wsgi_app = stamped  # type: ignore[method-assign]

    @app.after_request
    def finish(response: Response) -> Response:
        environ = request.environ
        request_id = environ.get(REQUEST_ID, "")
        headers = response.headers
        # No route sets any of these: appended in one go (each `set` would scan the list).
        # The browser client that goes with this API: a cached one that differs reloads.
        version = (VERSION_HEADER, current_version())
        headers.extend([("X-Request-Id", request_id), *API_HEADERS.items(), version])
        if request.blueprint == "web":
            headers["Content-Security-Policy"] = WEB_CSP
        method = environ.get("REQUEST_METHOD")
        caller = environ.get(CALLER)
        if method == "GET" and caller is not None and "Where" not in headers:
            # A read: the record authentication read is the caller's position now.
            headers["Where"] = where.header(where.where(caller))
        ms = (time.perf_counter() - environ.get(STARTED, time.perf_counter())) * 1000
        level, sampled = logs.level_of(method, response.status_code, ms, request_id)
        if log.isEnabledFor(level):
            fields: dict[str, Any] = {
                "request_id": request_id,
                "method": method,
                "path": environ.get("PATH_INFO"),
                "status": response.status_code,
                "ms": round(ms, 2),
            }
            client_id = logs.client_request_id(environ.get("HTTP_X_REQUEST_ID"))
            if client_id is not None:
                fields["client_request_id"] = client_id
            if PLAYER_ID in environ:
                fields["player_id"] = environ[PLAYER_ID]
            if logs.FAILURE in environ:
                fields["cause"], fields["error"] = environ[logs.FAILURE]
            if sampled:
                fields["sample"] = logs.READ_SAMPLE  # one such line stands for this many
            log.log(
                level, "slow request" if ms >= logs.SLOW_MS else "request", extra={"fields": fields}
            )
        return response


def _install_errors(app: Flask, log: logging.Logger) -> None:
    def failed(cause: str, error: object) -> None:
        request.environ[logs.FAILURE] = (cause, str(error)[:300])
        if isinstance(error, storage.Unavailable):
            app.extensions["health"].noticed(error)

    @app.errorhandler(svc.ServiceError)
    def service_error(exc: svc.ServiceError) -> Response:
        response = error_response(exc.status, exc.code, exc.message, **exc.details)
        if isinstance(exc.__cause__, storage.Unavailable):
            failed(exc.__cause__.cause, exc.__cause__)
        elif isinstance(exc, svc.Busy):
            failed(CONTENDED, exc.message)
        if isinstance(exc, svc.RetryLater):
            response.headers["Retry-After"] = str(exc.retry_after)
        if isinstance(exc, svc.InvalidToken):
            response.headers["WWW-Authenticate"] = f'{_REALM}, error="invalid_token"'
        elif isinstance(exc, svc.Unauthorized):
            response.headers["WWW-Authenticate"] = _REALM
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Response:
        status = exc.code or 500
        response = error_response(status, _HTTP_CODES.get(status, "error"), exc.description or "")
        for name, value in exc.get_headers():  # e.g. a 405's Allow
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(storage.StorageError)
    def storage_error(exc: storage.StorageError) -> Response:
        """A store error that no service call turned into an answer: never a 500."""
        fields = {"request_id": request.environ.get(REQUEST_ID), "error": str(exc)[:500]}
        if isinstance(exc, storage.Rejected):
            log.warning("storage rejected a request", extra={"fields": fields})
            return error_response(400, "malformed", "the request could not be stored as sent")
        failed(exc.cause if isinstance(exc, storage.Unavailable) else storage.STORE_FAILED, exc)
        retry = exc.retry_after if isinstance(exc, storage.Unavailable) else 1
        response = error_response(503, "storage_unavailable", "storage failed, try again shortly")
        response.headers["Retry-After"] = str(retry)
        return response

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> Response:
        log.error(
            "unhandled error",
            exc_info=exc,
            extra={"fields": {"request_id": request.environ.get(REQUEST_ID)}},
        )
        return error_response(500, "internal_error", "something went wrong on our side")
