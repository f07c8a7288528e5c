"""The price model of one request, in US dollars (us-east-1, on-demand, late 2026 list prices).

- API Gateway HTTP API: $1.00 per million requests (first 300 M a month).
- Lambda on arm64: $0.20 per million requests plus $0.0000133334 per GB-second, billed per
  started millisecond, at the function's memory (`lambda_memory_mb`: infra/zappa_settings.json's,
  or --lambda-memory-mb). The duration is priced as deployed (`deployed_ms`): the request's CPU
  time here (its thread's: the app and botocore, not the local store's process) at the share
  of a vCPU that memory size gets (Lambda gives one whole vCPU at 1,769 MB, in proportion
  below), plus each storage call's round trip in the same region (5 ms, a transaction 9 ms).
  With `duration="measured"` it is the request's wall time in the load test instead (the local
  store's latency on a shared machine included: an upper bound).
- DynamoDB on-demand: $0.125 per million read units, $0.625 per million write units, the units
  as the capacity meter (api/storage/metering/meter.py) computes them from item sizes.
- CloudWatch Logs ingestion: $0.50 per GB. Per request, the app's own JSON lines as the load
  test measured them (api/loadtest/stack.py: LogMeter, 26 bytes of per-event overhead each).
  Lambda's START, END and REPORT lines (about 340 bytes a request with their overhead) are not
  written: the deployment sets the function's system log level to WARN
  (infra/lambda_logging.json, docs/deploy.md); `lambda_log_bytes_per_request` prices a
  function that keeps them.

Not counted: data transfer (state bodies are a few KB), the once-a-minute sweep (a fixed cost
per deployment, not per tournament).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from api.storage.metering.billing import READ_UNIT_USD, WRITE_UNIT_USD

FULL_VCPU_MB = 1769  # Lambda's memory at which a function gets one whole vCPU
# What a storage call adds to a request's time on Lambda, beyond its CPU: DynamoDB's in-region
# latency (AWS: single-digit milliseconds); a transaction takes longer.
CALL_MS = {"commit": 9.0, "open_lobbies": 5.0, "due_tournaments": 5.0, "due_lobbies": 5.0}
DEFAULT_CALL_MS = 5.0
MEMORY_SIZES = (128, 256, 512)  # what `loadtest` prices side by side


def cpu_share(memory_mb: int) -> float:
    """How much longer CPU work takes at `memory_mb` than on one whole vCPU."""
    return max(1.0, FULL_VCPU_MB / memory_mb)


def waits_ms(calls: Mapping[str, float]) -> float:
    """The storage calls' round trips, by operation."""
    return sum(n * CALL_MS.get(name, DEFAULT_CALL_MS) for name, n in calls.items())


def deployed_ms(cpu_ms: float, calls: Mapping[str, float], memory_mb: int) -> float:
    """A request's duration on Lambda at `memory_mb`: its CPU time here at the function's
    share of a vCPU, plus its storage calls' round trips."""
    return cpu_ms * cpu_share(memory_mb) + waits_ms(calls)


@dataclass(frozen=True, slots=True)
class PriceModel:
    api_gateway_per_request: float = 1.00 / 1_000_000
    lambda_per_request: float = 0.20 / 1_000_000
    lambda_per_gb_second: float = 0.0000133334
    lambda_memory_mb: int = 512
    dynamodb_per_read_unit: float = READ_UNIT_USD
    dynamodb_per_write_unit: float = WRITE_UNIT_USD
    logs_per_gb: float = 0.50
    # Lambda's START, END and REPORT lines: none at system log level WARN, as deployed (about
    # 340 bytes a request at INFO).
    lambda_log_bytes_per_request: int = 0
    duration: str = "deployed"  # or "measured": the wall time of the request here

    def request_ms(self, cpu_ms: float, calls: Mapping[str, float], wall_ms: float) -> float:
        """The billed duration of one request."""
        if self.duration == "measured":
            return wall_ms
        return deployed_ms(cpu_ms, calls, self.lambda_memory_mb)

    def lambda_gb_seconds(self, ms: float) -> float:
        return math.ceil(max(ms, 1.0)) / 1000 * self.lambda_memory_mb / 1024

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Bill:
    """What some requests cost, by service."""

    requests: float
    gb_seconds: float
    read_units: float
    write_units: float
    log_bytes: float = 0.0  # the app's own log lines; Lambda's are added per request

    def dollars(self, prices: PriceModel) -> dict[str, float]:
        api = self.requests * prices.api_gateway_per_request
        lam = (
            self.requests * prices.lambda_per_request
            + self.gb_seconds * prices.lambda_per_gb_second
        )
        ddb = (
            self.read_units * prices.dynamodb_per_read_unit
            + self.write_units * prices.dynamodb_per_write_unit
        )
        logged = self.log_bytes + self.requests * prices.lambda_log_bytes_per_request
        logs = logged / 2**30 * prices.logs_per_gb
        return {
            "api_gateway": api,
            "lambda": lam,
            "dynamodb": ddb,
            "logs": logs,
            "total": api + lam + ddb + logs,
        }

    def __add__(self, other: Bill) -> Bill:
        return Bill(
            self.requests + other.requests,
            self.gb_seconds + other.gb_seconds,
            self.read_units + other.read_units,
            self.write_units + other.write_units,
            self.log_bytes + other.log_bytes,
        )

    def scaled(self, factor: float) -> Bill:
        return Bill(
            self.requests * factor,
            self.gb_seconds * factor,
            self.read_units * factor,
            self.write_units * factor,
            self.log_bytes * factor,
        )
