"""Every route's budgets: per token (the authenticated player) and per client address.

The mechanism is api/service/limits.py; README.md's rate-limit table lists these rows (a test
keeps them equal). Budgets are a few times what the reference client sends at its fastest
advised cadence (state polls every 1 s, the lobby every 1 s, a group every 2 s, a watched duel
every 1.5 s), and per address ten times that or more: several players share an address behind a
NAT, and an IPv6 /64 is one subject. Player creation has its own budgets in the service, per
address, per network and for everyone (api/service/creation_limits.py); its route's budget here
only stops a flood of requests, four times the creations an address may make.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from flask import Flask, request

from api.service import Service
from api.service.creation_limits import ADDRESS as CREATIONS_PER_ADDRESS
from api.service.creation_limits import CreationLimited
from api.service.errors import TooManyRequests
from api.service.limits import Budget, address_subject

Route = tuple[str, str]  # (method, path as documented: `/v1/lobbies/{lobby_id}`)

# Sampled budgets for the frequent reads keep their cost at a fraction of a write per request.
POLL = Budget(300, 60, sample=30)
POLL_ADDRESS = Budget(3000, 60, sample=100)
READ = Budget(180, 60, sample=5)
READ_ADDRESS = Budget(1800, 60, sample=5)
PUBLIC_ADDRESS = Budget(120, 60, sample=5)
STATIC = Budget(600, 60, sample=10)
ACTION = Budget(20, 60)
ACTION_ADDRESS = Budget(200, 60, sample=2)
# Requests to create players: four times the creations an address may make (the service
# counts those, exactly), sampled, so that a flood of refused creations costs little.
CREATION_REQUESTS = Budget(4 * CREATIONS_PER_ADDRESS.per, 60, sample=4)
CREATE_PLAYER: Route = ("POST", "/v1/players")

ROUTES: dict[Route, tuple[Budget | None, Budget]] = {
    ("GET", "/openapi.json"): (None, PUBLIC_ADDRESS),
    ("GET", "/v1/health"): (None, PUBLIC_ADDRESS),
    ("GET", "/v1/languages"): (None, PUBLIC_ADDRESS),
    ("GET", "/"): (None, PUBLIC_ADDRESS),
    ("GET", "/static/{filename}"): (None, STATIC),
    ("GET", "/static/version.js"): (None, STATIC),  # the shell's version (no cache)
    ("GET", "/sw.js"): (None, STATIC),  # the service worker, served from the root for its scope
    # New players cost storage: their budgets are in the service (creation_limits.py).
    CREATE_PLAYER: (None, CREATION_REQUESTS),
    ("GET", "/v1/me"): (READ, READ_ADDRESS),
    ("PATCH", "/v1/me"): (Budget(10, 3600), Budget(100, 3600)),
    ("POST", "/v1/me/token"): (Budget(10, 3600), Budget(100, 3600)),
    ("DELETE", "/v1/me/token"): (Budget(10, 3600), Budget(100, 3600)),
    ("POST", "/v1/queue"): (ACTION, ACTION_ADDRESS),
    ("GET", "/v1/queue"): (READ, READ_ADDRESS),
    ("DELETE", "/v1/queue"): (ACTION, ACTION_ADDRESS),
    ("GET", "/v1/lobbies/{lobby_id}"): (READ, READ_ADDRESS),
    ("POST", "/v1/groups"): (Budget(10, 60), Budget(100, 60)),
    ("POST", "/v1/groups/join"): (ACTION, ACTION_ADDRESS),
    ("GET", "/v1/groups/{group_id}"): (READ, READ_ADDRESS),
    ("POST", "/v1/groups/{group_id}/start"): (Budget(10, 60), Budget(100, 60)),
    ("POST", "/v1/groups/{group_id}/invite"): (Budget(10, 60), Budget(100, 60)),
    ("DELETE", "/v1/groups/{group_id}/members/{member_id}"): (ACTION, ACTION_ADDRESS),
    ("GET", "/v1/tournaments/{tournament_id}/state"): (POLL, POLL_ADDRESS),
    ("POST", "/v1/tournaments/{tournament_id}/guesses"): (
        Budget(30, 10),
        Budget(600, 60, sample=4),
    ),
    ("POST", "/v1/tournaments/{tournament_id}/leave"): (Budget(10, 60), ACTION_ADDRESS),
    ("GET", "/v1/tournaments/{tournament_id}/history"): (READ, READ_ADDRESS),
    ("GET", "/v1/tournaments/{tournament_id}/duels/{duel_id}"): (POLL, POLL_ADDRESS),
    # D19: read once per ended duel (then cached for good); a token only while it is live.
    ("GET", "/v1/tournaments/{tournament_id}/duels/{duel_id}/analysis"): (READ, READ_ADDRESS),
    # Players' history and statistics: read after a tournament, or on a shared link (the
    # summary, no token).
    ("GET", "/v1/me/history"): (READ, READ_ADDRESS),
    ("GET", "/v1/me/stats"): (READ, READ_ADDRESS),
    ("GET", "/v1/tournaments/{tournament_id}/summary"): (None, READ_ADDRESS),
    ("GET", "/v1/leaderboard"): (READ, READ_ADDRESS),
}
# A path that matches no route (404, 405) still costs a request: counted per address.
UNMATCHED: tuple[Budget | None, Budget] = (None, Budget(120, 60, sample=5))
# A route added without a row here gets these until it has its own.
DEFAULT: tuple[Budget | None, Budget] = (ACTION, ACTION_ADDRESS)


@lru_cache(maxsize=256)
def documented_path(rule: str) -> str:
    """A Flask rule as the README and OpenAPI write it: `/v1/lobbies/{lobby_id}`."""
    return re.sub(r"<(?:\w+(?:\([^)]*\))?:)?(\w+)>", r"{\1}", rule)


def client_address(environ: dict[str, Any]) -> str:
    """Who sent the request, from the place that cannot be forged.

    Behind API Gateway, zappa's REMOTE_ADDR comes from X-Forwarded-For: with one address there,
    API Gateway's; with several, the second to last, which a client chooses by sending its own
    header (zappa assumes CloudFront in front). The event's requestContext has the address
    API Gateway saw: `http.sourceIp` (HTTP API, payload 2.0) or `identity.sourceIp` (REST API).
    Locally, REMOTE_ADDR is the socket's peer.
    """
    event = environ.get("lambda.event")
    if isinstance(event, dict):
        context = event.get("requestContext") or {}
        for part in ("http", "identity"):
            source = (context.get(part) or {}).get("sourceIp")
            if source:
                return str(source)
    return str(environ.get("REMOTE_ADDR") or "")


def route() -> Route | None:
    rule = request.url_rule
    return None if rule is None else (request.method, documented_path(rule.rule))


def budgets() -> tuple[str, tuple[Budget | None, Budget]]:
    """The current request's subject prefix (its endpoint's name) and budgets."""
    rule, found = request.url_rule, route()
    if rule is None or found is None:
        return "unmatched", UNMATCHED
    return str(rule.endpoint), ROUTES.get(found, DEFAULT)


def install(app: Flask, service: Service) -> None:
    """Per-address budgets before anything else runs (a request from a bot holder is exempt)."""

    limiter = service.ctx.limiter

    @app.before_request
    def per_address() -> None:
        if not limiter.enabled:
            return
        environ = request.environ
        if "HTTP_X_BOT_KEY" in environ and service.players.holds_bot_key(environ["HTTP_X_BOT_KEY"]):
            return
        name, (_, budget) = budgets()
        try:
            limiter.spend(f"{name}:{address_subject(client_address(environ))}", budget)
        except TooManyRequests as refused:
            if route() == CREATE_PLAYER:  # a refused creation always says why
                raise CreationLimited("address", refused.retry_after) from refused
            raise


def spend_token_budget(service: Service, player_id: str) -> None:
    """The per-token budget of the current route, once the caller is authenticated."""
    name, (budget, _) = budgets()
    if budget is not None:
        service.ctx.limiter.spend(f"{name}:{player_id}", budget)
