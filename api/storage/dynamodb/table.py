"""The table's life: created if missing, waited for until active, its time to live on (`db
create`, `make run`, the tests; never the function, whose role may not)."""

from __future__ import annotations

import time

from botocore.exceptions import ClientError  # type: ignore[import-untyped]
from pynamodb.connection import TableConnection
from pynamodb.exceptions import TableDoesNotExist

from api.storage.dynamodb.errors import error_code
from api.storage.dynamodb.schema import table_definition, ttl_specification
from api.storage.repository import Unavailable


def create_if_missing(conn: TableConnection) -> bool:
    """CreateTable unless it exists; True if this call created it."""
    try:
        conn.describe_table()
        return False
    except TableDoesNotExist:
        pass
    try:
        conn.connection.dispatch("CreateTable", table_definition(conn.table_name))
    except ClientError as exc:
        if error_code(exc) == "ResourceInUseException":  # someone else just created it
            return False
        raise
    return True


def wait_active(conn: TableConnection, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        description = conn.describe_table()
        indexes = description.get("GlobalSecondaryIndexes", [])
        statuses = [description["TableStatus"], *(i.get("IndexStatus", "ACTIVE") for i in indexes)]
        if all(s == "ACTIVE" for s in statuses):
            return
        if time.monotonic() > deadline:
            raise Unavailable(f"table {conn.table_name} is still {statuses}", retry_after=10)
        time.sleep(0.5)


def ensure_ttl(conn: TableConnection) -> None:
    client = conn.connection.client
    described = client.describe_time_to_live(TableName=conn.table_name)
    if described["TimeToLiveDescription"]["TimeToLiveStatus"] in ("ENABLED", "ENABLING"):
        return
    client.update_time_to_live(
        TableName=conn.table_name, TimeToLiveSpecification=ttl_specification()
    )
