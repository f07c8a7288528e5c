"""The one wiring: how the service is built from its settings, for every entry point.

- the Flask app (`app()`): the Lambda handler (api/lambda_app.py) imports it;
- the scheduled sweep (scheduler/handler.py) and `make run` (api/local/run.py) build the same
  service (`service()`) over the same store (`repository()`);
- the benchmarks, the load test and the tests build theirs here too, with a capacity meter
  (`repository(settings, meter=...)`), a fake clock or a seed (`service(..., clock=, seed=)`).

Settings come from the environment once (api/config.py); nothing below guesses whether it runs
under test: a seed or a clock is passed, or there is none.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask

from api.config import Settings
from api.http.app import create_app
from api.service import Service
from api.service.context import Context, wall_clock_ms
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.repository import Repository

if TYPE_CHECKING:
    from api.storage.metering.meter import Meter


def repository(settings: Settings, *, meter: Meter | None = None) -> DynamoRepository:
    """The table the settings name, on DynamoDB (AWS, or the endpoint of DynamoDB Local or
    moto). Nothing connects yet. `meter`: what each call would cost (benchmarks, the load
    test); production meters nothing."""
    return DynamoRepository(settings, meter)


def service(
    settings: Settings,
    repo: Repository | None = None,
    *,
    clock: Callable[[], int] | None = None,
    seed: int | None = None,
    context: type[Context] = Context,
) -> Service:
    """The service over `repo` (None: `repository(settings)`). `clock`: milliseconds since the
    epoch (None: the wall clock). `seed`: the game's randomness and the rate limits' sampling
    repeat (None: the system's randomness, as in production). `context`: a Context subclass
    (`bench scale` draws its ids from the seed)."""
    store = repository(settings) if repo is None else repo
    rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
    sampling = None if seed is None else random.Random(0)
    ctx = context(store, settings, clock=clock or wall_clock_ms, rng=rng, sampling=sampling)
    return Service(ctx)


def app(settings: Settings | None = None) -> Flask:
    """The Flask app over `service(settings)` (None: the environment's settings)."""
    return create_app(service(settings or Settings.from_env()))
