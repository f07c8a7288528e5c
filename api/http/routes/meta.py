"""The API's description, health and the languages it plays."""

from __future__ import annotations

from flask import Flask, Response, jsonify

import wordlists
from api.http.openapi import openapi_document
from api.service import Service
from api.service.context import guarded


def install(app: Flask, service: Service) -> None:
    @app.get("/openapi.json")
    def openapi() -> Response:
        return jsonify(openapi_document())

    @app.get("/v1/health")
    def health() -> Response:
        repo = service.ctx.repo
        guarded(repo.ping)
        return jsonify({"status": "ok", "time": service.ctx.now(), **repo.describe()})

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
