"""GET /v1/health names the store that answers for DynamoDB and its table."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from api.storage.repository import Repository

STORES = {"memory": "memory", "dynamo": "moto", "dynamodb-local": "dynamodb-local"}


@pytest.mark.parametrize("repo", list(STORES), indirect=True)
def test_health_names_the_store_and_the_table(
    request: pytest.FixtureRequest, client: FlaskClient, repo: Repository
) -> None:
    r = client.get("/v1/health")
    assert r.status_code == 200
    body = r.get_json()
    assert body["status"] == "ok" and isinstance(body["time"], int)
    assert body["store"] == STORES[request.node.callspec.params["repo"]]
    assert body["table"] == getattr(repo, "table_name", None)
    assert (body["table"] is None) == (body["store"] == "memory")
