"""Settings, read once from the environment. Every variable is documented in README.md."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from api.storage.layout import Layout
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


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, not {raw!r}")
    return int(raw)


# Bounds of workable timers (see Settings.problems).
MIN_TURN_MS = 1_000
# Polls are advised up to two thirds of the window apart (api/http/polling.py): under 10 s, the
# last third leaves a polling client too little time for a slow network or a retried request.
MIN_RECONNECT_MS = 10_000
MAX_INTRO_MS = 600_000
MIN_OUTAGE_GAP_MS = 2_000
MIN_SWEEP_MS = 100

DEFAULT_TABLE = "wordle-tournament"
DEFAULT_REGION = "us-east-1"
DEFAULT_PORT = 8000


def default_outage_gap(timing: Timing) -> int:
    """The outage gap unless WT_OUTAGE_SECONDS sets one (Settings.outage_gap)."""
    return max(MIN_OUTAGE_GAP_MS, min(20_000, timing.reconnect_ms // 3))


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
    # or "moto" (both started by `make run`, see api/local/stores.py). Reported by /v1/health.
    store: str = "dynamodb"
    data_dir: str | None = None  # DynamoDB Local's folder (None: .data/ in the checkout)
    dynamodb_endpoint: str | None = None  # None: real AWS (credentials and region from boto3)
    region: str = DEFAULT_REGION
    timing: Timing = field(default_factory=Timing)
    port: int = DEFAULT_PORT
    rate_limits: bool = True
    creations_per_minute: int = 600  # the global ceiling on new players (sybils farm ratings)
    # Storage outages longer than this are recorded and paused (api/service/outages.py).
    # None: derived from the reconnect window; 0: not detected at all.
    outage_gap_ms: int | None = None
    # D18: house bots, played by the service itself, fill a lobby with a person in it this
    # long after its last seat was taken (WT_HOUSE_BOTS=0: never).
    house_bots: bool = True
    bot_fill_ms: int = 15_000
    # Bots that play through the API (the load harness's players): POST /v1/players
    # {"bot": true} needs this as X-Bot-Key; none by default, so a deployment refuses them.
    bot_key: str | None = None
    # The key of the poll passes in state ETags (api/service/poll_passes.py), the same on every
    # instance of a deployment; None: each process draws its own.
    poll_pass_key: str | None = field(default=None, repr=False)
    # How often the sweep runs where this process schedules it (`make run`: scheduler/loop.py).
    # A deployment's schedule is infra's rate(1 minute), which this default describes.
    sweep_ms: int = 60_000
    # How the indexes' shared partitions spread over keys (api/storage/layout.py).
    layout: Layout = field(default_factory=Layout)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings of this process; refuses, with the reason, settings that cannot work."""
        env = os.environ if env is None else env
        settings = cls._read(env)
        problems = settings.problems()
        if problems:
            raise ValueError("settings that cannot work: " + "; ".join(problems))
        return settings

    @property
    def outage_gap(self) -> int:
        """A gap in storage's heartbeat longer than this is an outage: a third of the reconnect
        window, at most 20 s. Clients are advised to poll at least every two thirds of a window
        (api/http/polling.py), so a polling player survives any outage up to a third."""
        if self.outage_gap_ms is not None:
            return self.outage_gap_ms
        return default_outage_gap(self.timing)

    @property
    def heartbeat_ms(self) -> int:
        """How often a busy instance refreshes its view of the heartbeat (and beats it)."""
        return max(1, self.outage_gap // 2 - 500)

    def problems(self) -> list[str]:
        """What makes these settings unworkable for real players (empty when they are fine).

        Tests may build Settings with tinier timers directly; the environment may not."""
        t = self.timing
        found = []
        if t.turn_ms < MIN_TURN_MS:
            found.append(f"WT_TURN_SECONDS must be at least {MIN_TURN_MS / 1000:g} (R10)")
        if t.reconnect_ms < MIN_RECONNECT_MS:
            found.append(
                f"WT_RECONNECT_SECONDS must be at least {MIN_RECONNECT_MS / 1000:g}: clients "
                "are advised to poll up to two thirds of the window apart, and a polling client "
                "must never look disconnected because of a slow request (R21, D9)"
            )
        if self.outage_gap_ms and self.outage_gap_ms < MIN_OUTAGE_GAP_MS:
            found.append(
                f"WT_OUTAGE_SECONDS must be 0 (off) or at least {MIN_OUTAGE_GAP_MS / 1000:g}: "
                "busy instances read storage's heartbeat about twice per gap"
            )
        if self.outage_gap_ms and self.outage_gap_ms > t.reconnect_ms // 3:
            found.append(
                "WT_OUTAGE_SECONDS must be at most a third of the reconnect window: shorter "
                "outages are not paused, and a player polling as advised must survive them (D9)"
            )
        if self.sweep_ms < MIN_SWEEP_MS:
            found.append(f"WT_SWEEP_SECONDS must be at least {MIN_SWEEP_MS / 1000:g}")
        if t.intro_ms > MAX_INTRO_MS:
            found.append(f"WT_INTRO_SECONDS must be at most {MAX_INTRO_MS / 1000:g} (R2)")
        if self.poll_pass_key is not None and len(self.poll_pass_key) < 32:
            found.append("WT_POLL_PASS_KEY must be at least 32 characters (a random secret)")
        return found

    @classmethod
    def _read(cls, env: Mapping[str, str]) -> Settings:
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
            creations_per_minute=_count(env, "WT_CREATIONS_PER_MINUTE", 600),
            outage_gap_ms=(
                None
                if env.get("WT_OUTAGE_SECONDS") in (None, "")
                else _seconds(env, "WT_OUTAGE_SECONDS", 0)
            ),
            house_bots=env.get("WT_HOUSE_BOTS", "1") != "0",
            bot_fill_ms=_seconds(env, "WT_BOT_FILL_SECONDS", 15),
            bot_key=env.get("WT_BOT_KEY") or None,
            poll_pass_key=env.get("WT_POLL_PASS_KEY") or None,
            sweep_ms=_seconds(env, "WT_SWEEP_SECONDS", 60),
            layout=Layout.from_env(env),
        )
