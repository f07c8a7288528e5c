"""Errors the service reports to clients, each with an HTTP status and a stable code."""

from __future__ import annotations

from typing import Any

from core import errors as game


class ServiceError(Exception):
    status = 400
    code = "bad_request"

    def __init__(self, message: str, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details


class BadRequest(ServiceError):
    status, code = 400, "malformed"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class InvalidToken(Unauthorized):
    """A token was sent but does not work (malformed, unknown, rotated or signed out)."""


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not_found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Invalid(ServiceError):
    status, code = 422, "invalid"


class RetryLater(ServiceError):
    """An answer that says when to try again (the Retry-After header)."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyRequests(RetryLater):
    status, code = 429, "too_many_requests"


class StorageUnavailable(RetryLater):
    status, code = 503, "storage_unavailable"


class Busy(RetryLater):
    """Too many concurrent writers won the race; the client may simply retry."""

    status, code = 503, "busy"


_STATUS_OF_GAME_ERROR: dict[type[game.GameError], type[ServiceError]] = {
    game.UnknownPlayer: Forbidden,
    game.NotLeader: Forbidden,
    game.NotMember: Forbidden,
    game.NotEligible: Forbidden,
    game.InvalidGuess: Invalid,
    game.InvalidNickname: Invalid,
}


def from_game_error(error: game.GameError) -> ServiceError:
    """A rule the command broke: 403 for who may not act, 422 for bad input, 409 otherwise."""
    kind: type[ServiceError] = Conflict
    for cls in type(error).__mro__:
        if cls in _STATUS_OF_GAME_ERROR:
            kind = _STATUS_OF_GAME_ERROR[cls]
            break
    details = {
        k: (list(v) if isinstance(v, tuple) else v)
        for k, v in vars(error).items()
        if not k.startswith("_")
    }
    return kind(str(error), code=error.code, **details)
