"""Anonymous players (R25): creation, the caller's own profile, and its token."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request

from api.http.limits import client_address
from api.http.requests import body, caller, integer
from api.service import Service
from api.service import errors as svc
from api.service.players import profile

_NEW_PLAYER_FIELDS = {"bot", "rating"}


def new_player_options(data: dict[str, Any]) -> tuple[bool, int | None]:
    """`{"bot": bool, "rating": 0..4000}`, every field optional; anything else is a 400."""
    unknown = sorted(set(data) - _NEW_PLAYER_FIELDS)
    if unknown:
        raise svc.BadRequest(f"unknown field(s): {', '.join(unknown)[:200]}")
    bot = data.get("bot", False)
    if not isinstance(bot, bool):
        raise svc.BadRequest("bot must be true or false")
    if "rating" not in data:
        return bot, None
    rating = integer(data["rating"])
    if isinstance(rating, bool) or not isinstance(rating, int) or not 0 <= rating <= 4000:
        raise svc.BadRequest("rating must be an integer from 0 to 4000")
    if not bot:
        raise svc.BadRequest("only a bot may start at another rating")
    return bot, rating


def install(app: Flask, service: Service) -> None:
    @app.post("/v1/players")
    def create_player() -> tuple[Response, int]:
        bot, rating = new_player_options(body(optional=True))
        if bot:
            service.players.check_bot_key(request.headers.get("X-Bot-Key"))
        player, token = service.players.create(client_address(request.environ), bot, rating)
        return jsonify({**profile(player), "token": token}), 201

    @app.get("/v1/me")
    def get_me() -> Response:
        return jsonify(profile(caller(service)))  # a contact (D9) keeps a lobby seat (D16)

    @app.patch("/v1/me")
    def patch_me() -> Response:
        player = caller(service)
        data = body()
        if "nickname" not in data:
            raise svc.BadRequest("send the new nickname as {'nickname': ...}")
        return jsonify(profile(service.players.rename(player, data["nickname"])))

    @app.post("/v1/me/token")
    def rotate_token() -> tuple[Response, int]:
        player, token = service.players.rotate_token(caller(service))
        return jsonify({**profile(player), "token": token}), 201

    @app.delete("/v1/me/token")
    def sign_out() -> Response:
        service.players.sign_out(caller(service))
        return Response(status=204)
