"""Settings, read once from the environment. Every variable is documented in README.md."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from core.timing import Timing


def _seconds(env: Mapping[str, str], name: str, default: float) -> int:
    """A duration in seconds from the environment, as milliseconds."""
    raw = env.get(name)
    if raw is None or raw == "":
        return int(default * 1000)
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if value < 0:
        raise ValueError(f"{name} must not be negative")
    return int(value * 1000)


@dataclass(frozen=True, slots=True)
class Settings:
    table_name: str = "wordle-tournament"
    dynamodb_endpoint: str | None = None  # None: real AWS (credentials and region from boto3)
    region: str = "us-east-1"
    timing: Timing = field(default_factory=Timing)
    port: int = 8000
    contact_coalesce_ms: int = 10_000  # at most one last-contact write per player per 10 s
    rate_limits: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            table_name=env.get("WT_TABLE", cls.table_name),
            dynamodb_endpoint=env.get("DYNAMODB_ENDPOINT") or None,
            region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or cls.region,
            timing=Timing(
                turn_ms=_seconds(env, "WT_TURN_SECONDS", 30),
                intro_ms=_seconds(env, "WT_INTRO_SECONDS", 6),
                reconnect_ms=_seconds(env, "WT_RECONNECT_SECONDS", 60),
            ),
            port=int(env.get("WT_PORT", cls.port)),
            rate_limits=env.get("WT_RATE_LIMITS", "1") != "0",
        )
