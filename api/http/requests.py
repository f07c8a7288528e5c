"""What every route needs from a request: the caller's player and the JSON body."""

from __future__ import annotations

from typing import Any

from flask import request

from api.http.limits import spend_token_budget
from api.service import Service
from api.service import errors as svc
from api.storage.records import PlayerRecord

PLAYER_ID = "wordle.player_id"  # the caller, for the request's log line
CALLER = "wordle.caller"  # the caller's record as authentication read it (for the Where header)


def caller(
    service: Service, *, contact: bool = True, consistent: bool = True, budget: bool = True
) -> PlayerRecord:
    """The player whose bearer token the request carries (401 otherwise), within the route's
    per-token budget (429 otherwise; bots have none). The request is contact (D9) unless the
    route stamps it itself (`contact=False`: the tournament routes). `consistent=False`: the
    player may be read eventually consistently (Players.authenticate: the state poll).
    `budget=False`: this request has spent its budget already (a poll pass's)."""
    environ = request.environ  # one look-up of the request's context, not three
    header = environ.get("HTTP_AUTHORIZATION")
    player = service.players.authenticate(header, consistent=consistent)
    environ[PLAYER_ID] = player.id
    environ[CALLER] = player
    if budget and not player.bot:
        spend_token_budget(service, player.id)
    if contact:
        service.contact(player)
    return player


def body(optional: bool = False) -> dict[str, Any]:
    """The body as a JSON object; with `optional`, no body at all is the empty object."""
    if optional and not request.get_data(cache=True):
        return {}
    data = request.get_json(force=True, silent=True)
    if not isinstance(data, dict):
        raise svc.BadRequest("the request body must be a JSON object")
    return data


def integer(value: Any) -> Any:
    """JSON has one number type: `2.0` is the integer 2 (as JSON Schema's "integer" says);
    anything else is returned unchanged for the caller to check."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
