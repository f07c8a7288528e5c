"""Injected lost replies: the request reaches the store and is applied, its reply never comes.

A botocore `before-send` handler sends the request itself, reads the store's answer and throws it
away, then raises the ReadTimeoutError a dropped reply would give: botocore's retry handler sees
an ordinary timeout and sends the request again (PynamoDB's default: botocore's standard mode,
`1 + max_retry_attempts` attempts), exactly as it would in production.
"""

from __future__ import annotations

import threading
from typing import Any

from botocore.awsrequest import AWSPreparedRequest  # type: ignore[import-untyped]
from botocore.exceptions import ReadTimeoutError  # type: ignore[import-untyped]
from botocore.httpsession import URLLib3Session  # type: ignore[import-untyped]


def _first_attempt(request: AWSPreparedRequest) -> bool:
    """botocore numbers the attempts of one call in its `amz-sdk-request` header."""
    header = request.headers.get("amz-sdk-request", b"attempt=1")
    text = header.decode() if isinstance(header, bytes) else header
    return "attempt=1;" in text + ";"


class LostReplies:
    """Loses the reply of the first attempt of the next `count` calls of `operations` (e.g.
    {"PutItem"}) whose body holds `containing`; their retries get through."""

    def __init__(
        self, client: Any, operations: set[str], count: int = 1, containing: bytes = b""
    ) -> None:
        self.operations = operations
        self.containing = containing  # only requests whose body holds these bytes
        self.remaining = count
        self.lost: list[tuple[str, int]] = []  # (operation, the store's HTTP status)
        self.sent: list[str] = []  # every request of `operations`, lost or not
        self._http = URLLib3Session()
        self._lock = threading.Lock()
        self._client = client
        client.meta.events.register_first("before-send.dynamodb", self._before_send)

    def _before_send(self, request: AWSPreparedRequest, event_name: str, **_: Any) -> None:
        operation = event_name.rsplit(".", 1)[-1]
        body = request.body or b""
        body = body.encode() if isinstance(body, str) else body
        if operation not in self.operations or self.containing not in body:
            return None
        with self._lock:
            self.sent.append(operation)
            if self.remaining <= 0 or not _first_attempt(request):
                return None  # botocore sends it as usual
            self.remaining -= 1
        answer = self._http.send(request)  # the store applies it ...
        self.lost.append((operation, answer.status_code))
        raise ReadTimeoutError(endpoint_url=request.url)  # ... and the reply is lost

    def remove(self) -> None:
        self._client.meta.events.unregister("before-send.dynamodb", self._before_send)
