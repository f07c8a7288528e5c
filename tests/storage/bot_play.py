"""When a house bot that plays all day sends its guesses: the traffic of a long-lived counter
(its guess budget, 30 per 10 s windows: api/http/limits.py), by a seeded model, no game run.

Tournaments back to back: a wait in the queue, then one to three rounds (knocked out, or on to
the next), each an intro and a duel of up to six guesses a turn apart, and a wait between
rounds while the other duels end. Gaps between guesses run from 2 s to a few minutes: the
pattern that left a window behind on every longer gap, before counters were bounded (85 B to
580 B in an hour).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

GUESS_WINDOW_MS = 10_000  # the per-token guess budget's window
HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS


def guess_times(span_ms: int, seed: int = 22, start_ms: int = 1_760_000_000_000) -> Iterator[int]:
    """The bot's guesses (epoch ms) for `span_ms` from `start_ms`."""
    rng = random.Random(seed)
    now, end = start_ms, start_ms + span_ms
    while True:
        now += rng.randint(15_000, 90_000)  # in the queue
        for _round in range(rng.choice((1, 1, 2, 2, 3))):
            now += 6_000  # the intro
            for _guess in range(rng.randint(2, 6)):
                now += rng.randint(2_000, 25_000)  # its turn comes round, it thinks
                if now >= end:
                    return
                yield now
            now += rng.randint(10_000, 120_000)  # the other duels of the round end


def main() -> int:
    """`python -m tests.storage.bot_play [--days 30] [--store dynamodb-local]`: the bot's
    guesses on a fresh engine, the counter item's size after every count (figures for
    docs/limits-and-outages.md)."""
    import argparse
    import time

    from api.config import Settings
    from api.local.stores import BENCH_STORES, bench_store
    from api.storage import keys
    from api.storage.dynamodb.repository import DynamoRepository, create_table
    from api.storage.metering.billing import item_size

    parser = argparse.ArgumentParser()
    parser.add_argument("--days", type=float, default=30)
    parser.add_argument("--store", choices=BENCH_STORES, default=BENCH_STORES[0])
    args = parser.parse_args()
    store = bench_store(args.store)
    try:
        settings: Settings = store.settings
        create_table(settings)
        repo = DynamoRepository(settings)
        subject = "guess:p_b0b0b0b0b0b0b0b0"
        key = {"pk": {"S": keys.counter_key(subject)}}
        sizes: list[int] = []
        started = time.monotonic()
        for t in guess_times(int(args.days * DAY_MS)):
            repo.count(subject, t // GUESS_WINDOW_MS, GUESS_WINDOW_MS, 1)
            item = repo.client.get_item(TableName=settings.table_name, Key=key)["Item"]
            sizes.append(item_size(item))
        print(
            f"{args.store}: {len(sizes)} guesses over {args.days:g} days in "
            f"{time.monotonic() - started:.0f} s; counter item {sizes[0]} B after the first, "
            f"{max(sizes)} B at most, {sizes[-1]} B after the last"
        )
    finally:
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
