"""Anonymous players (R25): creation and the caller's own profile."""

from __future__ import annotations

from flask import Flask, Response, jsonify, request

from api.http.requests import body, caller
from api.service import Service
from api.service import errors as svc
from api.service.players import profile


def install(app: Flask, service: Service) -> None:
    @app.post("/v1/players")
    def create_player() -> tuple[Response, int]:
        data = request.get_json(force=True, silent=True)  # optional: {"bot": true, "rating": n}
        bot, rating = False, None
        if isinstance(data, dict) and data.get("bot") is not None:
            if not isinstance(data["bot"], bool):
                raise svc.BadRequest("bot must be true or false")
            bot = data["bot"]
        if bot:
            service.players.check_bot_key(request.headers.get("X-Bot-Key"))
            rating = (data or {}).get("rating")
            if rating is not None and (
                isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 4000
            ):
                raise svc.BadRequest("rating must be an integer from 0 to 4000")
        player, token = service.players.create(request.remote_addr or "unknown", bot, rating)
        return jsonify({**profile(player), "token": token}), 201

    @app.get("/v1/me")
    def get_me() -> Response:
        return jsonify(profile(caller(service)))

    @app.patch("/v1/me")
    def patch_me() -> Response:
        player = caller(service)
        data = body()
        if "nickname" not in data:
            raise svc.BadRequest("send the new nickname as {'nickname': ...}")
        return jsonify(profile(service.players.rename(player, data["nickname"])))
