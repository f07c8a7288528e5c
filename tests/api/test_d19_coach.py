"""D19, the coach: `GET /v1/tournaments/{id}/duels/{duel_id}/analysis` serves an ended duel's
analysis (the same numbers as core.analysis), cacheable for good; never a live duel's (409
`duel_in_play`, whose body tells nothing of the board); only the tournament's players while it
is live, anyone once it has finished."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from flask import Flask

import wordlists
from api.service.analysis import AnalysisCache
from api.words import lexicon
from core.analysis import VERSION, analyse
from core.duel import Duel
from core.feedback import score
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH
from tests.api.game import Game, Player
from tests.api.words import fillers

URL = "/v1/tournaments/{}/duels/{}/analysis"


def _first_round(game: Game) -> tuple[str, list[Player], list[Duel]]:
    tid, players = game.start_tournament()
    game.clock.advance(game.stored(tid).timing.intro_ms)
    return tid, players, list(game.stored(tid).rounds[0].duels)


def _player(players: list[Player], pid: str) -> Player:
    return next(p for p in players if p.id == pid)


def _end_by_finding(game: Game, tid: str, players: list[Player], duel: Duel) -> Duel:
    """Two rows that are no secret, then the secret: the duel ends with a board to judge."""
    words = fillers("en", len(duel.secret))
    for row in range(3):
        mover = _player(players, duel.players[row % 2])
        word = game.secret_text(tid, duel.id) if row == 2 else words[17 * row + 3]
        game.clock.advance(2_000 + 1_000 * row)
        r = game.guess(mover, tid, row, word)
        assert r.status_code == 200, r.get_json()
    ended = game.duel(tid, duel.id)
    assert ended.ended_at is not None and ended.winner == duel.players[0]
    return ended


def _secret_leaks(text: str, secret: tuple[str, ...]) -> bool:
    return "".join(secret) in text.lower() or json.dumps(list(secret)) in text


@BOTH
def test_d19_an_ended_duel_is_analysed_as_core_does_and_cached_for_good(game: Game) -> None:
    tid, players, duels = _first_round(game)
    duel = _end_by_finding(game, tid, players, duels[0])
    watcher = _player(players, duels[1].players[0])  # a spectator of this duel (R9)
    r = game.get(URL.format(tid, duel.id), watcher)
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    t = game.stored(tid)
    expected = analyse(duel, lexicon("en", len(duel.secret)), t.seed).to_json()
    assert {k: body[k] for k in expected} == json.loads(json.dumps(expected))
    assert (body["tournament"], body["round"], body["language"]) == (tid, 1, "en")
    assert body["word_length"] == len(duel.secret) and body["secret"] == list(duel.secret)
    # The counts, checked against the word list itself (not through the solver).
    secrets = wordlists.secret_words("en", len(duel.secret))
    rows = body["rows"]
    assert rows[0]["before"] == len(secrets)
    left = [s for s in secrets if score(s, duel.turns[0].word or ()) == duel.turns[0].marks]
    assert rows[0]["after"] == rows[1]["before"] == len(left)
    assert rows[2]["after"] == 0 and rows[2]["by"] == duel.players[0]
    for row in rows:
        assert 0 <= row["skill"] <= 100 and 0 <= row["luck"] <= 100
        assert row["best_expected"] <= row["played_expected"]
    # Cacheable for good: private while the tournament is live (its players only).
    assert r.headers["Cache-Control"] == "private, max-age=31536000, immutable"
    assert r.headers["ETag"] == f'"a{VERSION}.1"'
    etag = {"If-None-Match": r.headers["ETag"]}
    again = game.get(URL.format(tid, duel.id), watcher, headers=etag)
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == r.headers["ETag"]


@BOTH
def test_d19_no_analysis_while_the_duel_is_played(game: Game) -> None:
    tid, players, duels = _first_round(game)
    live = duels[0]
    mover = _player(players, live.players[0])
    game.clock.advance(1_000)
    word = fillers("en", len(live.secret))[5]
    assert game.guess(mover, tid, 0, word).status_code == 200
    for asker in (mover, _player(players, live.players[1]), _player(players, duels[1].players[0])):
        r = game.get(URL.format(tid, live.id), asker)
        assert r.status_code == 409, r.get_json()
        error = r.get_json()["error"]
        assert error["code"] == "duel_in_play" and live.id in error["message"]
        text = r.get_data(as_text=True)
        assert not _secret_leaks(text, game.duel(tid, live.id).secret)
        assert not {"rows", "before", "after", "best", "candidates"} & set(json.loads(text))
        assert not {"rows", "before", "after", "best", "candidates"} & set(error.get("details", {}))
        assert r.headers["Cache-Control"] == "no-store"


@BOTH
def test_d19_unknown_duels_and_tournaments_are_404_and_strangers_are_refused(game: Game) -> None:
    tid, players, duels = _first_round(game)
    duel = _end_by_finding(game, tid, players, duels[0])
    member = players[0]
    for missing in ("r9d1", "r1d7", "r2d1"):
        r = game.get(URL.format(tid, missing), member)
        assert r.status_code == 404 and r.get_json()["error"]["code"] == "not_found", missing
    assert game.get(URL.format(tid, "x1"), member).status_code == 404  # not a duel id
    assert game.get(URL.format("t_0123456789abcdef", "r1d1"), member).status_code == 404
    # While the tournament is live: a token, and one of its players.
    assert game.get(URL.format(tid, duel.id)).status_code == 401
    stranger = game.new_player()
    r = game.get(URL.format(tid, duel.id), stranger)
    assert r.status_code == 403 and r.get_json()["error"]["code"] == "not_a_participant"
    assert not _secret_leaks(r.get_data(as_text=True), duel.secret)


def test_d19_a_finished_tournament_s_duels_are_public(game: Game) -> None:
    tid, players = game.start_tournament()
    game.play_to_end(tid, players)
    t = game.stored(tid)
    assert t.finished_at is not None
    for rnd in t.rounds[:2]:
        for duel in rnd.duels:
            r = game.get(URL.format(tid, duel.id))  # no token, as the public results
            assert r.status_code == 200, r.get_json()
            assert r.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert r.get_json()["round"] == rnd.number
            assert r.get_json()["secret"] == list(duel.secret)


def test_d19_the_instance_cache_is_bounded_and_computes_each_duel_once(
    make_app: Any, repo: Any, clock: FakeClock
) -> None:
    app: Flask = make_app(repo)
    game = Game(app.test_client(), clock, repo)
    tid, players = game.start_tournament()
    game.play_to_end(tid, players)
    t = game.stored(tid)
    first, second, third = t.rounds[0].duels[:3]
    cache = AnalysisCache(size=2)
    ctx = app.extensions["service"].ctx
    made = cache.analysis(ctx, t, first)
    assert cache.analysis(ctx, t, first) is made  # kept, not computed again
    cache.analysis(ctx, t, second)
    cache.analysis(ctx, t, third)
    assert len(cache) == 2 and cache.known(t, [first]) == {}  # the oldest went first
    assert set(cache.known(t, [first, second, third])) == {second.id, third.id}


def test_d19_an_analysis_is_kept_for_the_duel_as_it_ended_not_for_its_id(
    make_app: Any, repo: Any, clock: FakeClock
) -> None:
    """A request that ended a duel one way and lost its commit to another request (which ended
    it another way) must not leave its analysis for the duel that was stored."""
    app: Flask = make_app(repo)
    game = Game(app.test_client(), clock, repo)
    tid, players = game.start_tournament()
    game.play_to_end(tid, players)
    t = game.stored(tid)
    stored = next(d for d in t.rounds[0].duels if len(d.turns) > 1)
    lost = replace(stored, turns=stored.turns[:-1])  # the same id, another board
    cache = AnalysisCache()
    ctx = app.extensions["service"].ctx
    cache.keep(t, [lost], {lost.id: analyse(lost, lexicon("en", len(lost.secret)), t.seed)})
    assert cache.known(t, [stored]) == {} and set(cache.known(t, [lost])) == {lost.id}
    assert len(cache.analysis(ctx, t, stored).rows) == len(stored.turns)
