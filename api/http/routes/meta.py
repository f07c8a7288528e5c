"""The API's description, health and the languages it plays."""

from __future__ import annotations

from flask import Flask, Response, jsonify, request

import wordlists
from api.http import logs
from api.http.openapi import openapi_document
from api.service import Service
from api.service.errors import StorageUnavailable
from api.service.health import Health
from api.storage.repository import Unavailable


def install(app: Flask, service: Service) -> None:
    @app.get("/openapi.json")
    def openapi() -> Response:
        return jsonify(openapi_document())

    checks: Health = app.extensions["health"]

    @app.get("/v1/health")
    def health() -> Response:
        """200 when the store can be read and written (api/service/health.py); else a 503
        whose details name the cause (`unreachable`, `throttled`, `disk_full`, ...)."""
        repo = service.ctx.repo
        try:
            written = checks.check()
        except Unavailable as exc:
            failure = StorageUnavailable(f"storage cannot be used: {exc.cause}", exc.retry_after)
            failure.details = {"cause": exc.cause, **repo.describe()}
            # Logged with the request (api/http/app.py); not "noticed": it is the check itself.
            request.environ[logs.FAILURE] = (exc.cause, str(exc)[:300])
            raise failure from None
        body = {
            "status": "ok",
            "time": service.ctx.now(),
            **repo.describe(),
            "poll_passes": service.passes.scope,
        }
        return jsonify({**body, "written_at": written})

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
                        # D12: typed sequences beyond the tiles (ligatures, apostrophe forms of
                        # oʻ and gʻ, ё → е), so a client types tiles as the server reads them.
                        "spellings": {typed: list(t) for typed, t in lang.spellings.items()},
                    }
                    for lang in wordlists.LANGUAGES.values()
                ],
                "word_lengths": list(wordlists.LENGTHS),
            }
        )
