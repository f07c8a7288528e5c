"""The OpenAPI document is as strict as the server. Schemathesis's positive cases (200 a route)
got 422 for a history `cursor` (any string up to 64 characters was allowed, only the API's own
base64 was taken) and for nicknames of no letter ("0000000000000000000") or with a symbol above
ASCII ("ab«cd"); reading the routes for more found a guess `word` of whitespace only. Each is
now decided the same way by the document and by the server, checked here on the document's own
schemas (jsonschema) against the app's answers."""

from __future__ import annotations

import base64
import string
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from core import nicknames

APP = create_app(Service(Context(InMemoryRepository(), Settings(rate_limits=False))))
CLIENT = APP.test_client()
DOC: dict[str, Any] = CLIENT.get("/openapi.json").get_json()
UNKNOWN = "t_0123456789abcdef"
WHITESPACE = "".join(c for c in map(chr, range(0x3001)) if c.isspace())


def body_property(path: str, method: str, name: str) -> Draft202012Validator:
    body = DOC["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    return Draft202012Validator(body["properties"][name])


def query_parameter(path: str, name: str) -> Draft202012Validator:
    (param,) = [p for p in DOC["paths"][path]["get"]["parameters"] if p["name"] == name]
    return Draft202012Validator(param["schema"])


def auth() -> dict[str, str]:
    response = CLIENT.post("/v1/players")
    assert response.status_code == 201, response.get_json()
    return {"Authorization": f"Bearer {response.get_json()['token']}"}


CURSOR = query_parameter("/v1/me/history", "cursor")
WORD = body_property("/v1/tournaments/{tournament_id}/guesses", "post", "word")
NICKNAME = body_property("/v1/me", "patch", "nickname")
HEADERS = auth()


@settings(max_examples=60, deadline=None)
@given(cursor=st.from_regex(r"[0-9]{1,15}\.t_[0-9a-f]{16}", fullmatch=True) | st.text(max_size=70))
def test_a_cursor_the_document_allows_is_a_page_and_no_other(cursor: str) -> None:
    response = CLIENT.get("/v1/me/history", query_string={"cursor": cursor}, headers=HEADERS)
    if CURSOR.is_valid(cursor):
        assert response.status_code == 200, (cursor, response.get_json())
        assert response.get_json()["entries"] == []
    else:
        assert response.status_code in (400, 422), (cursor, response.get_json())


def test_the_cursors_the_server_gives_are_the_documents() -> None:
    assert CURSOR.is_valid("1764650000000.t_0123456789abcdef")
    assert not CURSOR.is_valid("abc") and not CURSOR.is_valid("A" * 64)
    # One in the base64url form this API gave before still reads (a page held across a deploy).
    before = base64.urlsafe_b64encode(b"1764650000000.t_0123456789abcdef").decode().rstrip("=")
    response = CLIENT.get("/v1/me/history", query_string={"cursor": before}, headers=HEADERS)
    assert response.status_code == 200, response.get_json()


@settings(max_examples=80, deadline=None)
@given(word=st.text(alphabet=WHITESPACE + "ab", min_size=1, max_size=64))
def test_a_word_the_document_allows_reaches_the_game(word: str) -> None:
    """A schema-valid word goes on to the tournament (404 here: none such); a word of whitespace
    alone is refused by both (the server's 422 invalid_characters)."""
    url = f"/v1/tournaments/{UNKNOWN}/guesses"
    response = CLIENT.post(url, json={"row": 0, "word": word}, headers=HEADERS)
    if WORD.is_valid(word):
        assert response.status_code == 404, (word, response.get_json())
    else:
        assert response.status_code == 422, (word, response.get_json())
        assert response.get_json()["error"]["code"] == "invalid_characters"


# Reasons the document cannot hold: the length once spaces collapse, the blocked-word lists and
# the names already taken (what characters pass below U+0300 it says exactly).
BEYOND_THE_DOCUMENT = {"length", "blocked", "look_alike"}
LATIN = st.characters(max_codepoint=nicknames.SPELLED_OUT - 1)


@settings(max_examples=150, deadline=None)
@given(
    name=st.text(alphabet=LATIN, min_size=3, max_size=20)
    | st.text(alphabet=string.digits + " _-.", min_size=3, max_size=20)
    | st.from_regex(nicknames.PATTERN, fullmatch=True).filter(lambda s: 3 <= len(s) <= 20)
)
def test_a_nickname_of_characters_below_u0300_is_taken_exactly_when_the_document_allows_it(
    name: str,
) -> None:
    response = CLIENT.patch("/v1/me", json={"nickname": name}, headers=auth())
    body = response.get_json()
    if response.status_code != 200:
        assert response.status_code == 422 and body["error"]["code"] == "invalid_nickname"
        if body["error"]["details"]["reason"] in BEYOND_THE_DOCUMENT:
            return
    if max(map(ord, name)) < nicknames.SPELLED_OUT:  # above it, the server decides alone
        assert (response.status_code == 200) == NICKNAME.is_valid(name), (name, body)
    else:
        assert NICKNAME.is_valid(name) or response.status_code == 422, (name, body)
