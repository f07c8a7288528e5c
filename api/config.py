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


DEFAULT_TABLE = "wordle-tournament"
DEFAULT_REGION = "us-east-1"
DEFAULT_PORT = 8000


def _port(raw: str | None) -> int:
    if not raw:
        return DEFAULT_PORT
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ValueError(f"WT_PORT must be a TCP port number, not {raw!r}")
    return int(raw)


STORES = ("dynamodb-local", "moto", "dynamodb")


def _store(raw: str | None) -> str:
    if not raw:
        return "dynamodb"
    if raw not in STORES:
        raise ValueError(f"WT_STORE must be one of {', '.join(STORES)}, not {raw!r}")
    return raw


@dataclass(frozen=True, slots=True)
class Settings:
    table_name: str = DEFAULT_TABLE
    # What answers at the endpoint: "dynamodb" (AWS, or DYNAMODB_ENDPOINT), "dynamodb-local"
    # or "moto" (both started by `make run`, see api/storage/stores.py). Reported by /v1/health.
    store: str = "dynamodb"
    data_dir: str | None = None  # DynamoDB Local's folder (None: .data/ in the checkout)
    dynamodb_endpoint: str | None = None  # None: real AWS (credentials and region from boto3)
    region: str = DEFAULT_REGION
    timing: Timing = field(default_factory=Timing)
    port: int = DEFAULT_PORT
    contact_coalesce_ms: int = 10_000  # at most one last-contact write per player per 10 s
    rate_limits: bool = True
    # Practice bots. Only `make run` starts a bot pool; a deployment has none.
    bots: bool = False
    bot_fill_ms: int = 15_000  # a person's lobby waits this long before bots fill it
    bot_key: str | None = None  # POST /v1/players {"bot": true} needs it as X-Bot-Key

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            table_name=env.get("WT_TABLE", DEFAULT_TABLE),
            store=_store(env.get("WT_STORE")),
            data_dir=env.get("WT_DATA_DIR") or None,
            dynamodb_endpoint=env.get("DYNAMODB_ENDPOINT") or None,
            region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or DEFAULT_REGION,
            timing=Timing(
                turn_ms=_seconds(env, "WT_TURN_SECONDS", 30),
                intro_ms=_seconds(env, "WT_INTRO_SECONDS", 6),
                reconnect_ms=_seconds(env, "WT_RECONNECT_SECONDS", 60),
            ),
            port=_port(env.get("WT_PORT")),
            rate_limits=env.get("WT_RATE_LIMITS", "1") != "0",
            bots=env.get("WT_BOTS", "0") != "0",
            bot_fill_ms=_seconds(env, "WT_BOT_FILL_SECONDS", 15),
            bot_key=env.get("WT_BOT_KEY") or None,
        )
