"""The queue and lobbies (R18, R19, D6, D7)."""

from __future__ import annotations

from flask import Flask, Response, jsonify

from api.http.requests import body, caller
from api.service import Service
from api.service.matchmaking import lobby_view


def install(app: Flask, service: Service) -> None:
    @app.post("/v1/queue")
    def join_queue() -> tuple[Response, int]:
        player = caller(service)
        record = service.queue.join(player, body().get("language"))
        return jsonify(lobby_view(record)), 201

    @app.get("/v1/queue")
    def queue_status() -> Response:
        return jsonify(service.queue.status(caller(service)))

    @app.delete("/v1/queue")
    def leave_queue() -> Response:
        service.queue.leave(caller(service))
        return Response(status=204)

    @app.get("/v1/lobbies/<id(l):lobby_id>")
    def get_lobby(lobby_id: str) -> Response:
        return jsonify(service.queue.lobby(caller(service), lobby_id))
