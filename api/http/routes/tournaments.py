"""Live tournaments: the polled state (ETag, Poll-Interval), guesses, leaving, watching, and
the history of the rounds played."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, jsonify, request

from api.http import polling
from api.http.caching import JSON_ENCODER as _JSON
from api.http.caching import named_passes, names_state, seen_places, seen_version
from api.http.caching import not_modified as _not_modified
from api.http.limits import spend_token_budget
from api.http.requests import PLAYER_ID, body, caller, integer
from api.service import Service, where
from api.service import errors as svc
from api.service.players import bearer
from api.service.poll_passes import PollPasses
from api.service.tournaments import DUEL_ID, Snapshot
from api.storage.records import PlayerRecord


def _watching() -> str | None:
    """`?watch=<duel id>`: the duel the client shows (R9), which the poll advice follows."""
    if not request.environ.get("QUERY_STRING"):
        return None  # most polls: no query string to parse
    duel = request.args.get("watch")
    if duel is not None and not DUEL_ID.fullmatch(duel):
        raise svc.BadRequest("watch must be a duel id such as 'r3d2'")
    return duel


class Position:
    """The caller's position after this request (the `Where` header) and the state's ETag for
    it, with a poll pass while they play on (api/service/poll_passes.py): computed once per
    response."""

    def __init__(self, snapshot: Snapshot, player: PlayerRecord, passes: PollPasses) -> None:
        self.place = where.where(player, snapshot.tournament)
        self.text = where.header(self.place)
        self.fingerprint = where.fingerprint(self.text)
        self.state_etag = snapshot.etag(self.fingerprint)  # without the pass
        self.etag = self.state_etag
        if snapshot.plays_on(player.id):
            issued = passes.issue(
                player.id,
                player.token_hash,
                player.bot,
                snapshot.tournament.id,
                self.fingerprint,
                snapshot.now,
            )
            self.etag = f'{self.state_etag[:-1]}.{issued}"'

    def shown(self) -> bool:
        """Whether the request's If-None-Match names this position (its Where fingerprint)."""
        return self.fingerprint in seen_places()


def _headers(etag: str, advice: int) -> list[tuple[str, str]]:
    return [
        ("ETag", etag),
        ("Poll-Interval", polling.header(advice)),
        ("Cache-Control", "no-cache"),
    ]


def state_response(
    snapshot: Snapshot,
    player: PlayerRecord,
    view: dict[str, Any] | None,
    at: Position,
    watching: str | None = None,
) -> Response:
    """The state with its ETag, poll advice and the caller's position; without a `view`, a 304
    (the request's If-None-Match named this very state)."""
    viewer = polling.Viewer(player.id, at.place["group_id"], watching)
    advice = polling.poll_after_ms(snapshot.tournament, viewer, snapshot.now)
    headers = [*_headers(at.etag, advice), ("Where", at.text)]
    if view is None:  # a 304 has no body, so no content type either (RFC 9110, 15.4.5)
        return Response(status=304, headers=headers)
    return Response(_JSON.encode(view), status=200, headers=headers, mimetype="application/json")


def install(app: Flask, service: Service) -> None:
    def by_pass(tournament_id: str, seen: int, watching: str | None) -> Response | Snapshot | None:
        """A poll naming a state whose ETag carries a valid poll pass for its token: a 304 from
        the tournament's read alone if that state is unchanged (no Where header: the position
        is the one the ETag names), else the advanced tournament for the usual answer; None
        without such a pass."""
        named = named_passes()
        if not named:
            return None
        player_id, token_hash = bearer(request.environ.get("HTTP_AUTHORIZATION"))
        now = service.ctx.now()
        for state_etag, fingerprint, text in named:
            holder = service.passes.holder(
                text, player_id, token_hash, tournament_id, fingerprint, now
            )
            if holder is None:
                continue
            request.environ[PLAYER_ID] = player_id
            if not holder.bot:
                spend_token_budget(service, player_id)
            unchanged, snapshot = service.tournaments.unchanged_for(
                player_id, tournament_id, seen, state_etag, fingerprint
            )
            if not unchanged:
                return snapshot
            viewer = polling.Viewer(player_id, None, watching)  # plays on: no group advice
            advice = polling.poll_after_ms(snapshot.tournament, viewer, snapshot.now)
            return Response(status=304, headers=_headers(f'{state_etag[:-1]}.{text}"', advice))
        return None

    @app.get("/v1/tournaments/<id(t):tournament_id>/state")
    def tournament_state(tournament_id: str) -> Response:
        watching = _watching()
        seen = seen_version()
        advanced = None if seen is None else by_pass(tournament_id, seen, watching)
        if isinstance(advanced, Response):
            return advanced
        # A poll that names its state reads its player eventually consistently
        # (docs/decisions.md, "Reading the token's player"), and again strongly when that finds
        # them elsewhere than they were shown: the position never goes back to an older one.
        player = caller(service, contact=False, consistent=seen is None, budget=advanced is None)
        snapshot = service.tournaments.state(player, tournament_id, seen, advanced)
        position = Position(snapshot, player, service.passes)
        if seen is not None and not position.shown():
            player = service.players.authenticate(request.environ.get("HTTP_AUTHORIZATION"))
            position = Position(snapshot, player, service.passes)
        if names_state(position.state_etag):
            return state_response(snapshot, player, None, position, watching)  # no view to build
        view = service.tournaments.view(snapshot, player)
        return state_response(snapshot, player, view, position, watching)

    @app.post("/v1/tournaments/<id(t):tournament_id>/guesses")
    def guess(tournament_id: str) -> Response:
        player = caller(service, contact=False)
        data = body()
        snapshot, view = service.tournaments.guess(
            player, tournament_id, integer(data.get("row")), data.get("word"), data.get("duel")
        )
        return state_response(snapshot, player, view, Position(snapshot, player, service.passes))

    @app.post("/v1/tournaments/<id(t):tournament_id>/leave")
    def leave_tournament(tournament_id: str) -> Response:
        player = caller(service, contact=False)
        snapshot, view = service.tournaments.leave(player, tournament_id)
        return state_response(snapshot, player, view, Position(snapshot, player, service.passes))

    @app.get("/v1/tournaments/<id(t):tournament_id>/history")
    def tournament_history(tournament_id: str) -> Response:
        player = caller(service, contact=False)  # history() stamps the tournament itself
        rounds, history = service.tournaments.history(player, tournament_id)
        etag = f'"h{rounds}"'  # rounds that have ended never change again
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if _not_modified(etag):
            return Response("", status=304, headers=headers)
        text = _JSON.encode(history)
        return Response(text, mimetype="application/json", headers=headers)

    @app.get("/v1/tournaments/<id(t):tournament_id>/duels/<duel:duel_id>")
    def watch_duel(tournament_id: str, duel_id: str) -> Response:
        return jsonify(
            service.tournaments.duel(caller(service, contact=False), tournament_id, duel_id)
        )
