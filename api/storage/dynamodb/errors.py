"""botocore's and PynamoDB's errors as the repository's: Conflict, Unavailable (with its cause:
unreachable, throttled, disk full, the table missing, the store's own failure), Rejected or
StorageError.

A store's own failure is a bare 500 (`InternalFailure`): DynamoDB Local answers a write on a
full disk so, with the reason only in its own output ("database or disk is full"). The local
stack that runs it registers a *hint* (`add_hint`) that looks there, so the cause is named."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError  # type: ignore[import-untyped]
from pynamodb.exceptions import PynamoDBException

from api.storage.repository import (
    DISK_FULL,
    STORE_FAILED,
    TABLE_MISSING,
    THROTTLED,
    UNREACHABLE,
    Conflict,
    Rejected,
    StorageError,
    Unavailable,
)

_THROTTLED = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "LimitExceededException",
    "TransactionInProgressException",
}
_FAILED = {"InternalServerError", "InternalFailure", "ServiceUnavailable"}
DISK_FULL_RETRY_S = 30  # a person must make room first

Hint = Callable[[], str | None]  # a cause for a store's 500 (DISK_FULL), or None
_hints: list[Hint] = []
_hints_lock = threading.Lock()


def add_hint(hint: Hint) -> None:
    """Ask `hint` what a store's own failure (a 500) means, until `remove_hint`."""
    with _hints_lock:
        _hints.append(hint)


def remove_hint(hint: Hint) -> None:
    with _hints_lock:
        if hint in _hints:
            _hints.remove(hint)


def _failed(code: str, message: str) -> Unavailable:
    with _hints_lock:
        hints = list(_hints)
    for hint in hints:
        if hint() == DISK_FULL:
            return Unavailable(
                f"the store's disk is full ({code}: {message})", DISK_FULL_RETRY_S, DISK_FULL
            )
    return Unavailable(f"DynamoDB failed: {code}: {message}", 1, STORE_FAILED)


_CONFLICT_REASONS = {"ConditionalCheckFailed", "TransactionConflict"}
_BUSY_REASONS = {"ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"}

STORE_ERRORS = (PynamoDBException, BotoCoreError, ClientError)


def error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _reasons(exc: ClientError) -> set[str]:
    reasons = getattr(exc, "cancellation_reasons", None)  # pynamodb's VerboseClientError
    if reasons is not None:
        return {r.code for r in reasons if r is not None}
    return {r.get("Code", "") for r in exc.response.get("CancellationReasons", [])}


def botocore_response(exc: BaseException) -> dict[str, Any]:
    """The whole response of the botocore error behind `exc` ({} if there is none).

    PynamoDB wraps botocore's ClientError in its own (a VerboseClientError, perhaps inside a
    TransactWriteError) that keeps only the error code and cancellation reasons; botocore's, with
    the returned items and the retry count, is its cause.
    """
    seen: BaseException | None = exc
    found: dict[str, Any] = {}
    while seen is not None:
        if isinstance(seen, ClientError):
            found = seen.response
        nested = seen.cause if isinstance(seen, PynamoDBException) else None
        seen = nested or seen.__cause__
    return found


def translate(exc: Exception) -> StorageError:
    """A botocore/PynamoDB error as the repository's: Conflict, Unavailable, Rejected or
    StorageError."""
    cause = exc.cause if isinstance(exc, PynamoDBException) and exc.cause else exc
    if isinstance(cause, BotoCoreError):  # could not connect, timed out, ...
        return Unavailable(f"DynamoDB unreachable: {cause}", 2, UNREACHABLE)
    if not isinstance(cause, ClientError):
        return StorageError(str(exc))
    code = error_code(cause)
    if code == "ConditionalCheckFailedException":
        return Conflict("a record changed since it was read")
    if code == "TransactionCanceledException":
        reasons = _reasons(cause)
        if reasons & _CONFLICT_REASONS:
            return Conflict(f"transaction cancelled: {sorted(reasons)}")
        if reasons & _BUSY_REASONS:
            return Unavailable(f"DynamoDB is throttling: {sorted(reasons)}", 1, THROTTLED)
        return StorageError(f"transaction cancelled: {sorted(reasons)}")
    if code in _THROTTLED:
        return Unavailable(f"DynamoDB is busy: {code}", 1, THROTTLED)
    if code in _FAILED:
        return _failed(code, str(cause.response.get("Error", {}).get("Message", "")))
    if code == "ValidationException":  # e.g. a key over 2,048 bytes, an item over 400 KB
        return Rejected(f"DynamoDB refused the request: {cause}")
    if code == "ResourceNotFoundException":
        return Unavailable(f"DynamoDB table missing (run `db create`?): {cause}", 30, TABLE_MISSING)
    return StorageError(f"DynamoDB error {code}: {cause}")


@contextmanager
def translated() -> Iterator[None]:
    try:
        yield
    except STORE_ERRORS as exc:
        raise translate(exc) from exc
