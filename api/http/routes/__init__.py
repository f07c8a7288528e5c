"""The /v1 routes, a module per area. Each `install(app, service)` adds its routes to the app;
handlers only parse the request, call the service and shape the response."""

from __future__ import annotations

from flask import Flask

from api.http.routes import groups, matchmaking, meta, players, tournaments
from api.service import Service


def install(app: Flask, service: Service) -> None:
    for area in (meta, players, matchmaking, groups, tournaments):
        area.install(app, service)
