"""The store behind the local stack (`make run`, the load test, the benchmarks), by WT_STORE.

- `dynamodb-local`: Amazon DynamoDB Local in a child process, its data in WT_DATA_DIR (default
  `.data/` in the checkout; `:memory:` keeps nothing);
- `moto`: moto's DynamoDB in this process (Java-free; its data goes with the process);
- `dynamodb`: whatever answers at DYNAMODB_ENDPOINT, or AWS itself when it is unset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from api.config import Settings
from api.local.dynamodb_local import CHECKOUT, MEMORY, QUICK_START, DynamoDBLocal
from api.local.moto_server import MotoServer, dummy_credentials
from api.local.watch import Watch
from api.storage.dynamodb.errors import add_hint, remove_hint
from api.storage.repository import DISK_FULL

DEFAULT_DATA_DIR = CHECKOUT / ".data"


@dataclass
class OpenStore:
    settings: Settings  # with the endpoint of the store that was started
    where: str  # for people: the endpoint and where the data lives
    close: Callable[[], None]
    # Why a healed store could not be started again (None: it runs, or is not watched).
    lost: Callable[[], str | None] = lambda: None


def data_dir(settings: Settings) -> str:
    """The folder DynamoDB Local keeps its data in, or MEMORY."""
    if settings.data_dir == MEMORY:
        return MEMORY
    return str(Path(settings.data_dir).resolve()) if settings.data_dir else str(DEFAULT_DATA_DIR)


def open_store(settings: Settings, *, long_run: bool = False, heal: bool = False) -> OpenStore:
    """Start the store `settings.store` names (if it is one that runs here). DynamoDB Local's
    JVM starts quickly unless it is for a `long_run` (see QUICK_START); with `heal` (`make
    run`), it is started again whenever it exits (api/local/watch.py). Its 500s on a full disk
    are named as such (api/storage/dynamodb/errors.py's hints)."""
    if settings.store == "dynamodb-local":
        dummy_credentials()  # -sharedDb: any credentials see the same tables
        folder = data_dir(settings)
        local = DynamoDBLocal(folder, jvm_options=() if long_run else QUICK_START)
        endpoint = local.start()

        def hint() -> str | None:
            return DISK_FULL if local.disk_full() else None

        add_hint(hint)
        watch = Watch(local).start() if heal else None

        def close() -> None:
            if watch is not None:
                watch.stop()
            remove_hint(hint)
            local.stop()

        kept = "in memory only" if folder == MEMORY else f"data in {folder}"
        where = f"DynamoDB Local at {endpoint}, {kept}"
        if watch is not None:
            where += " (restarted if it exits)"
        found = replace(settings, dynamodb_endpoint=endpoint)
        return OpenStore(found, where, close, lambda: None if watch is None else watch.lost)
    if settings.store == "moto":
        server = MotoServer()
        where = f"moto at {server.endpoint}, in this process's memory"
        return OpenStore(replace(settings, dynamodb_endpoint=server.endpoint), where, server.stop)
    where = settings.dynamodb_endpoint or f"AWS {settings.region}"
    return OpenStore(settings, where, lambda: None)


BENCH_STORES = ("dynamodb-local", "moto")  # the first is the benchmarks' default


def bench_store(store: str) -> OpenStore:
    """A store that keeps nothing, for a benchmark: DynamoDB Local in memory, or moto."""
    return open_store(Settings(store=store, data_dir=MEMORY))


def add_store_option(parser: Any) -> None:
    parser.add_argument(
        "--store",
        choices=BENCH_STORES,
        default=BENCH_STORES[0],
        help=f"the DynamoDB engine to run against ({BENCH_STORES[0]})",
    )
