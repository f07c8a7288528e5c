"""Groups of friends (R22, D11)."""

from __future__ import annotations

from flask import Flask, Response, jsonify

from api.http.requests import body, caller
from api.service import Service
from api.service.matchmaking import lobby_view
from api.storage.records import GroupRecord, PlayerRecord


def install(app: Flask, service: Service) -> None:
    def group_json(record: GroupRecord | None, player: PlayerRecord) -> Response:
        if record is None:
            return Response(status=204)
        return jsonify(service.groups.view(player, record.id))

    @app.post("/v1/groups")
    def create_group() -> tuple[Response, int]:
        player = caller(service)
        record = service.groups.create(player, body().get("language"))
        return group_json(record, player), 201

    @app.post("/v1/groups/join")
    def join_group() -> Response:
        player = caller(service)
        return group_json(service.groups.join(player, body().get("invite_code")), player)

    @app.get("/v1/groups/<id(g):group_id>")
    def get_group(group_id: str) -> Response:
        return jsonify(service.groups.view(caller(service), group_id))

    @app.post("/v1/groups/<id(g):group_id>/start")
    def start_group(group_id: str) -> tuple[Response, int]:
        return jsonify(lobby_view(service.groups.start(caller(service), group_id))), 201

    @app.post("/v1/groups/<id(g):group_id>/invite")
    def new_invite(group_id: str) -> Response:
        player = caller(service)
        return group_json(service.groups.new_invite(player, group_id), player)

    @app.delete("/v1/groups/<id(g):group_id>/members/<id(p):member_id>")
    def remove_member(group_id: str, member_id: str) -> Response:
        player = caller(service)
        record = service.groups.remove(player, group_id, member_id)
        if record is None or member_id == player.id:
            return Response(status=204)
        return group_json(record, player)
