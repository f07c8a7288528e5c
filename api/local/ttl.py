"""Time to live under `make run`: DynamoDB Local (and moto) accept a table's TTL but never
delete anything, so closed lobbies and rate-limit counters past their `x` would stay for good.
A thread does what DynamoDB does on AWS: it scans the table a page at a time, every EVERY_S
seconds, and deletes the items whose TTL attribute has passed, at most PER_SECOND a second,
each on condition that it has not been given a later expiry meanwhile. A pass that deleted
anything says so in one log line.

Expiry is cleanup only (docs/storage.md): nothing the service reads depends on an item being
gone, or still there, once its TTL has passed; AWS deletes such items within about two days.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError  # type: ignore[import-untyped]

from api.config import Settings
from api.http import logs
from api.storage.dynamodb.errors import STORE_ERRORS, error_code
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.dynamodb.schema import TTL_ATTRIBUTE

EVERY_S = 60.0
PER_SECOND = 50
PAGE = 100  # items a Scan call reads
STORES = ("dynamodb-local", "moto")  # the engines that never carry out TTL


class Expiry:
    def __init__(
        self,
        settings: Settings,
        *,
        every_s: float = EVERY_S,
        per_second: int = PER_SECOND,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.repo = DynamoRepository(settings)
        self.every_s = every_s
        self.per_second = per_second
        self.clock = clock
        self.deleted = 0  # over every pass
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ttl", daemon=True)
        self._log = logs.configure()

    def start(self) -> Expiry:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(10)
        self.repo.close()

    def _run(self) -> None:
        while not self._stopping.wait(self.every_s):
            try:
                self.sweep()
            except STORE_ERRORS as exc:  # the store is down or restarting: next time
                self._log.warning("TTL pass failed", extra={"fields": {"error": str(exc)[:300]}})

    def sweep(self) -> Counter[str]:
        """One pass over the table: the expired items deleted, by key prefix (`R#`, `L#`)."""
        started = time.monotonic()
        now = int(self.clock())
        client, table = self.repo.client, self.repo.table_name
        deleted: Counter[str] = Counter()
        scanned = 0
        start: dict[str, Any] | None = None
        names = {"#x": TTL_ATTRIBUTE}
        values = {":now": {"N": str(now)}}
        while not self._stopping.is_set():
            page = client.scan(
                TableName=table,
                Limit=PAGE,
                FilterExpression="#x < :now",
                ProjectionExpression="pk",
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
                **({"ExclusiveStartKey": start} if start else {}),
            )
            scanned += page.get("ScannedCount", 0)
            for item in page.get("Items", []):
                if self._stopping.is_set():
                    break
                if self._delete(item["pk"], names, values):
                    pk = item["pk"]["S"]
                    deleted[pk[: pk.index("#") + 1] if "#" in pk else pk] += 1
                self._stopping.wait(1.0 / self.per_second)  # the bounded rate
            start = page.get("LastEvaluatedKey")
            if not start:
                break
        total = sum(deleted.values())
        self.deleted += total
        if total:
            fields = {
                "deleted": total,
                "by_kind": dict(deleted),
                "scanned": scanned,
                "seconds": round(time.monotonic() - started, 1),
            }
            self._log.info("expired items deleted", extra={"fields": fields})
        return deleted

    def _delete(self, pk: dict[str, str], names: dict[str, str], values: dict[str, Any]) -> bool:
        try:
            self.repo.client.delete_item(
                TableName=self.repo.table_name,
                Key={"pk": pk},
                ConditionExpression="#x < :now",  # not if its expiry moved on meanwhile
                ExpressionAttributeNames=names,
                ExpressionAttributeValues=values,
            )
            return True
        except ClientError as exc:
            if error_code(exc) == "ConditionalCheckFailedException":
                return False
            raise


def start(settings: Settings) -> Expiry | None:
    """The TTL thread for a store that needs one (None for DynamoDB itself)."""
    return Expiry(settings).start() if settings.store in STORES else None
