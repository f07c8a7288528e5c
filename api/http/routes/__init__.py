"""The /v1 routes, a module per area. Each `install(app, service)` adds its routes to the app;
handlers only parse the request, call the service and shape the response.

Path ids are matched by their shape at routing (converters `id(<kind>)` and `duel`): an id that
cannot exist is a 404 before any handler, token check or storage read, and a path such as
`/v1/groups/join` is never mistaken for a group id.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import BaseConverter, Map

from api.http.routes import (
    analysis,
    groups,
    history,
    matchmaking,
    meta,
    players,
    tournaments,
)
from api.service import Service
from api.service.context import id_pattern
from api.service.tournaments import DUEL_ID


class IdConverter(BaseConverter):
    """`<id(t):tournament_id>`: an id of one kind, as `Context.new_id` makes them."""

    def __init__(self, url_map: Map, prefix: str) -> None:
        super().__init__(url_map)
        self.regex = id_pattern(prefix)


class DuelConverter(BaseConverter):
    regex = DUEL_ID.pattern


def install(app: Flask, service: Service) -> None:
    app.url_map.converters["id"] = IdConverter
    app.url_map.converters["duel"] = DuelConverter
    for area in (meta, players, matchmaking, groups, tournaments, history, analysis):
        area.install(app, service)
