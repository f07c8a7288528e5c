"""Clean errors and HTTP details: ids checked before storage, a store's refusal is a 4xx or 503
and never a 500, 401 names its scheme, 405 says what is allowed, every response carries the
security headers, and POST /v1/players checks its body."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.exceptions import ClientError  # type: ignore[import-untyped]
from flask import Flask

import wordlists
from api.config import Settings
from api.storage.dynamodb.errors import translate
from api.storage.repository import Rejected, Repository, StorageError
from tests.api.clock import FakeClock
from tests.api.conftest import BOTH, TIMING, game_for
from tests.api.error_checks import assert_error
from tests.api.game import Game, Player
from tests.api.repos import CountingRepo, RepoProxy
from tests.api.test_openapi_and_logs import app_routes

DYNAMO_KEY_LIMIT = 2048  # bytes of a partition key


def world(game: Game) -> tuple[list[Player], dict[str, str]]:
    players = game.new_players(9)
    tid = game.queue(players[:8])
    game.clock.advance(TIMING.intro_ms)
    group = game.post("/v1/groups", players[8], json={"language": "en"}).get_json()
    lobby = game.post("/v1/queue", players[8], json={"language": "en"}).get_json()
    return players, {
        "tournament_id": tid,
        "lobby_id": lobby["id"],
        "group_id": group["id"],
        "member_id": players[8].id,
        "duel_id": "r1d1",
    }


def fill(path: str, values: dict[str, str], odd: str, which: str) -> str:
    return re.sub(r"{([^}]+)}", lambda m: odd if m[1] == which else values[m[1]], path)


# ---------------------------------------------------------------------------- ids (finding 6)


def odd_ids() -> list[str]:
    return [
        "t" * (DYNAMO_KEY_LIMIT + 1),  # over DynamoDB's partition key limit
        "é" * 1100,  # 2,200 bytes in UTF-8, 1,100 characters
        "t_" + "0" * 15,  # one hex digit short
        "t_" + "0" * 17,
        "t_000000000000000G",
        "T_0000000000000000",
        "x",
        "%00",
    ]


BOOKKEEPING = {"count", "touch_player"}  # rate-limit counts; the caller's own contact (D9)


@BOTH
def test_long_or_odd_path_ids_are_404_before_any_storage_read(
    make_app: Any, repo: Repository, clock: FakeClock
) -> None:
    counting = CountingRepo(repo)
    # Without rate limits: every route's every odd id from one address is more 404s than one
    # address may send a minute (README's UNMATCHED budget), and their counts are no reads.
    app: Flask = make_app(counting, settings=Settings(timing=TIMING, rate_limits=False))
    game = game_for(app, clock, counting)
    players, values = world(game)
    me = players[8]
    checked = 0
    for path, method in sorted(app_routes(app)):
        for which in re.findall(r"{([^}]+)}", path):
            for odd in odd_ids():
                url = fill(path, values, odd, which)
                counting.reset()
                r = game.call(method.upper(), url, me, json={"row": 0, "word": "crane"})
                assert_error(r, 404)
                # Only the caller's own player item was read (besides rate-limit counts and the
                # caller's contact stamp): the odd id never reached storage.
                asked = [args for name, args in counting.calls if name not in BOOKKEEPING]
                assert all(
                    name == "get_player" for name, _ in counting.calls if name not in BOOKKEEPING
                )
                assert all(args == (me.id,) for args in asked), (url[:80], counting.calls)
                stamped = [args[0] for name, args in counting.calls if name == "touch_player"]
                assert set(stamped) <= {me.id}
                checked += 1
    assert checked >= 60


@BOTH
def test_odd_ids_in_bodies_and_tokens_are_refused_before_storage(
    make_app: Any, repo: Repository, clock: FakeClock
) -> None:
    counting = CountingRepo(repo)
    game = game_for(make_app(counting), clock, counting)
    players, values = world(game)
    me = players[0]
    long_group = "g" * (DYNAMO_KEY_LIMIT + 1)
    for code in (f"{long_group}.secret", "g_0000000000000000." + "s" * 90, "g_0.x", ".", "a.b"):
        counting.reset()
        r = game.post("/v1/groups/join", me, json={"invite_code": code})
        assert_error(r, 404 if len(code) <= 100 else 400)
        assert counting.calls_to("get_group") == 0
    r = game.post(
        f"/v1/tournaments/{values['tournament_id']}/guesses",
        me,
        json={"row": 0, "word": "crane", "duel": "r1d1" + "x" * 3000},
    )
    assert_error(r, 400, "malformed")
    for token in ("p" * (DYNAMO_KEY_LIMIT + 1) + ".secret", "p_" + "é" * 1100 + ".s" * 10):
        counting.reset()
        r = game.client.get("/v1/me", headers={"Authorization": f"Bearer {token}"})
        assert_error(r, 401, "unauthorized")
        assert all(name == "count" for name, _ in counting.calls)  # rate limits only


def _client_error(code: str, message: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": message}}, "GetItem")


def test_dynamodb_validation_exception_is_the_repository_rejected_error() -> None:
    """DynamoDB (and DynamoDB Local) answer a key over 2,048 bytes with ValidationException;
    moto does not check key sizes on reads, so the translation is checked on its own."""
    error = translate(
        _client_error(
            "ValidationException",
            "One or more parameter values were invalid: Size of hashkey has exceeded the "
            "maximum size limit of2048 bytes",
        )
    )
    assert isinstance(error, Rejected)


class RefusingRepo(RepoProxy):
    """Every tournament read fails as DynamoDB would fail it."""

    def __init__(self, inner: Repository, error: Exception) -> None:
        super().__init__(inner)
        self.error = error

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "get_tournament":
            raise self.error
        return super()._call(name, *args, **kwargs)


@pytest.fixture
def error_log() -> Iterator[io.StringIO]:
    logger = logging.getLogger("wordle_tournament")
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (translate(_client_error("ValidationException", "key too long")), 400, None),
        (StorageError("DynamoDB error SomethingNew"), 503, "storage_unavailable"),
    ],
)
def test_a_store_refusal_is_a_json_4xx_or_503_never_a_500_with_a_trace(
    make_app: Any,
    repo: Repository,
    clock: FakeClock,
    error: Exception,
    status: int,
    code: str | None,
    error_log: io.StringIO,
) -> None:
    refusing = RefusingRepo(repo, error)
    game = game_for(make_app(refusing), clock, refusing)
    players = game.new_players(8)
    tid = game.queue(players)
    r = game.client.get(f"/v1/tournaments/{tid}/state", headers=players[0].headers)
    body = assert_error(r, status, code)
    assert "Traceback" not in r.get_data(as_text=True) and "Traceback" not in body["message"]
    if status == 503:
        assert int(r.headers["Retry-After"]) >= 1
    assert "Traceback" not in error_log.getvalue()


# ---------------------------------------------------------------------------- 401 and 405


def test_401_names_the_bearer_scheme(game: Game) -> None:
    r = game.get("/v1/me")
    assert_error(r, 401, "unauthorized")
    assert r.headers["WWW-Authenticate"] == 'Bearer realm="wordle-tournament"'
    r = game.get("/v1/me", headers={"Authorization": "Bearer p_0000000000000000.nope-nope-nope-1"})
    assert_error(r, 401, "unauthorized")
    assert r.headers["WWW-Authenticate"].startswith("Bearer ")
    assert 'error="invalid_token"' in r.headers["WWW-Authenticate"]


@pytest.mark.parametrize("scheme", ["bearer", "BEARER", "BeArEr", "Bearer"])
def test_the_bearer_scheme_is_case_insensitive(game: Game, scheme: str) -> None:
    p = game.new_player()
    r = game.get("/v1/me", headers={"Authorization": f"{scheme} {p.token}"})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["id"] == p.id


def test_405_lists_the_allowed_methods(game: Game) -> None:
    p = game.new_player()
    for method, url, allowed in (
        ("PUT", "/v1/me", {"GET", "PATCH"}),
        ("PATCH", "/v1/queue", {"GET", "POST", "DELETE"}),
        ("GET", "/v1/me/token", {"POST", "DELETE"}),
        ("DELETE", "/v1/players", {"POST"}),
    ):
        r = game.call(method, url, p)
        assert_error(r, 405, "method_not_allowed")
        listed = {m.strip() for m in r.headers["Allow"].split(",")}
        assert allowed <= listed <= allowed | {"HEAD", "OPTIONS"}, (url, listed)


# ---------------------------------------------------------------------------- headers


def test_api_responses_are_not_sniffed_or_framed(game: Game) -> None:
    p = game.new_player()
    for r in (
        game.get("/v1/me", p),
        game.get("/v1/languages"),
        game.get("/openapi.json"),
        game.get("/v1/nope"),
        game.get("/v1/me"),
    ):
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]


@pytest.mark.parametrize(
    "url", ["/", "/static/app.js", "/static/css/base.css", "/sw.js", "/static/version.js"]
)
def test_the_web_client_has_a_content_security_policy(game: Game, url: str) -> None:
    r = game.get(url)
    assert r.status_code == 200
    csp = {
        part.split()[0]: part.split()[1:]
        for part in r.headers["Content-Security-Policy"].split(";")
        if part.strip()
    }
    assert csp["default-src"] == ["'none'"]
    assert csp["script-src"] == ["'self'"]  # no inline script, no eval
    assert csp["style-src"] == ["'self'"]
    assert csp["img-src"] == ["'self'", "data:"]  # the favicon is a data: SVG
    assert csp["connect-src"] == ["'self'"]
    assert csp["worker-src"] == ["'self'"]  # the service worker, /sw.js
    assert csp["manifest-src"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"] == "no-referrer"
    r.close()


# ---------------------------------------------------------------------------- POST /v1/players


@pytest.mark.parametrize(
    "kwargs",
    [
        {"json": {"nickname": "Sneaky"}},
        {"json": {"bot": False, "admin": True}},
        {"json": {"rating": 4000}},  # only bots start elsewhere than 1000
        {"json": {"bot": "yes"}},
        {"json": {"bot": None}},
        {"json": {"bot": True, "rating": "1500"}},
        {"json": []},
        {"json": "player"},
        {"json": 1},
        {"data": "{", "content_type": "application/json"},
        {"data": "null", "content_type": "application/json"},
        {"data": "\n", "content_type": "application/json"},  # not JSON, not empty either
    ],
)
def test_new_player_bodies_are_checked(game: Game, kwargs: dict[str, Any]) -> None:
    r = game.post("/v1/players", **kwargs)
    assert_error(r, 400)


@pytest.mark.parametrize(
    "kwargs", [{}, {"json": {}}, {"json": {"bot": False}}, {"data": "", "content_type": "x/y"}]
)
def test_new_player_body_may_be_empty_or_an_empty_object(
    game: Game, kwargs: dict[str, Any]
) -> None:
    r = game.post("/v1/players", **kwargs)
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["rating"] == 1000 and r.get_json()["bot"] is False


# ---------------------------------------------------------------------------- OpenAPI


def test_openapi_documents_languages_nicknames_lengths_and_limits(game: Game) -> None:
    import wordlists
    from core import nicknames

    doc = game.get("/openapi.json").get_json()
    paths = doc["paths"]

    def body_schema(path: str, method: str) -> dict[str, Any]:
        schema: dict[str, Any] = paths[path][method]["requestBody"]["content"]["application/json"][
            "schema"
        ]
        return schema

    schemas = doc["components"]["schemas"]
    languages = "#/components/schemas/LanguageCode"  # one enum of the 13 (R23)
    assert schemas["LanguageCode"]["enum"] == list(wordlists.LANGUAGES)
    for path in ("/v1/queue", "/v1/groups"):
        assert body_schema(path, "post")["properties"]["language"]["$ref"] == languages
    nickname = body_schema("/v1/me", "patch")["properties"]["nickname"]
    assert nickname["minLength"] == nicknames.MIN_LENGTH
    assert nickname["maxLength"] == nicknames.MAX_LENGTH
    assert nickname["pattern"] == nicknames.PATTERN
    assert body_schema("/v1/groups/join", "post")["properties"]["invite_code"]["minLength"] >= 1
    word = body_schema("/v1/tournaments/{tournament_id}/guesses", "post")["properties"]["word"]
    assert word["minLength"] == 1
    new_player = body_schema("/v1/players", "post")
    assert new_player["additionalProperties"] is False
    for path, item in paths.items():
        for method, op in item.items():
            assert {"413", "429"} <= set(op["responses"]), (path, method)
            assert "Retry-After" in op["responses"]["429"]["headers"]
            for param in op.get("parameters", []):
                if param["in"] == "path":
                    assert param["schema"]["pattern"].startswith("^"), (path, param)
    assert schemas["Profile"]["properties"]["nickname"]["maxLength"] == nicknames.MAX_LENGTH
    assert schemas["Lobby"]["properties"]["language"]["$ref"] == languages


def test_the_nickname_pattern_agrees_with_the_server_below_u0300() -> None:
    """The documented pattern is as strict as the server for every character it spells
    out (below U+0300): a name with one such character between letters matches it exactly when
    the server stores it (whitespace: collapsed into a space), and a name of such characters
    without a letter ("000", "1-2.3") matches it exactly when the server stores it too (never:
    it needs a letter). Stored names always match (the profile's schema)."""
    from core import errors, nicknames

    pattern = re.compile(nicknames.PATTERN)

    def stored(name: str) -> str | None:
        try:
            return nicknames.validate(name)
        except errors.InvalidNickname:
            return None

    for code in range(nicknames.SPELLED_OUT):
        c = chr(code)
        for name in (f"ab{c}cd", f"12{c}34", f"{c}{c}{c}"):
            kept = stored(name)
            if kept is not None:
                assert pattern.match(kept), repr(name)
            if len(" ".join(name.split())) >= nicknames.MIN_LENGTH:
                assert (kept is not None) == bool(pattern.match(name)), repr(name)
    assert stored("0000000000000000000") is None and not pattern.match("0000000000000000000")


def test_d12_the_languages_carry_every_spelling_the_server_reads(game: Game) -> None:
    """A client types tiles as the server normalises them: tiles, keyboards and the typed
    sequences that stand for tiles (œ → o e, Uzbek o' → oʻ, ё → е) come with each language."""
    languages = {lang["code"]: lang for lang in game.get("/v1/languages").get_json()["languages"]}
    assert list(languages) == list(wordlists.LANGUAGES)
    for code, spec in wordlists.LANGUAGES.items():
        sent = languages[code]["spellings"]
        assert sent == {typed: list(tiles) for typed, tiles in spec.spellings.items()}
        for typed, tiles in sent.items():
            assert list(wordlists.normalise(code, typed)) == tiles, (code, typed)
    assert languages["fr"]["spellings"]["œ"] == ["o", "e"]
    assert languages["uz"]["spellings"]["o'"] == ["oʻ"]
