"""Schemathesis over the whole OpenAPI document, against the app itself (WSGI, in-memory store):
every operation, valid and invalid inputs, with a valid bearer token so that authenticated
routes go past the 401. No 5xx, and every response conforms to the document (status, headers,
content type, body schema).

Bounded: EXAMPLES examples per operation (and per generation mode). Derandomized under CI, like
the hypothesis profile of tests/conftest.py: a red build always means a change broke something.
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context
from api.storage.memory import InMemoryRepository
from core import nicknames

EXAMPLES = 100

# Rate limits off: every request should go as deep as its input lets it (a 429 is documented
# on every operation anyway; tests/api/test_errors.py covers them).
APP = create_app(Service(Context(InMemoryRepository(), Settings(rate_limits=False))))
# A schema-valid request may still be refused as 422 where the document cannot hold the rule:
# the word lists or the game's state (out of reach here: no tournament is found) and a nickname's
# characters above U+0300, length once spaces collapse, blocked words and look-alikes
# (test_schemathesis_whole_document checks that every positive 422 is one of these). A 400 is
# only for what the document itself forbids, so schema-valid data must never get one.
CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
            }
        }
    }
)
schema = schemathesis.openapi.from_wsgi("/openapi.json", APP, config=CONFIG)


def fresh_token() -> str:
    """A new player for each example: rotating or signing out must not starve the next one."""
    response = APP.test_client().post("/v1/players")
    assert response.status_code == 201, response.get_data(as_text=True)
    token: str = response.get_json()["token"]
    return token


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=bool(os.environ.get("CI")),
    database=None if os.environ.get("CI") else settings.default.database,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_schemathesis_whole_document(case: Any) -> None:
    response = case.call_and_validate(headers={"Authorization": f"Bearer {fresh_token()}"})
    if case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE:
        beyond_the_document(case, response)


BEYOND_THE_DOCUMENT = {"length", "blocked", "look_alike"}


def beyond_the_document(case: Any, response: Any) -> None:
    """A positive case's 422 is a rule the document cannot hold, nothing else (the
    history cursor, a guess of whitespace and a nickname without a letter were such 422s)."""
    if response.status_code != 422:
        return
    where = f"{case.method} {case.path}"
    error = response.json()["error"]
    assert where == "PATCH /v1/me", (where, case.body, error)
    nickname = case.body["nickname"]
    above = max(map(ord, nickname)) >= nicknames.SPELLED_OUT
    assert above or error["details"]["reason"] in BEYOND_THE_DOCUMENT, (nickname, error)
