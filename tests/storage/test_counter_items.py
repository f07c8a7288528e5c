"""Rate-limit counters stay small: an item holds only the windows that can still
count, written in the very update that counts, on the fake, moto and DynamoDB Local alike;
counters stored by the code before keep counting, and shrink on their next count."""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from api.storage import keys
from api.storage.counter_windows import DEPTH
from api.storage.dynamodb.repository import DynamoRepository
from api.storage.memory import InMemoryRepository
from api.storage.metering.billing import item_size
from api.storage.repository import Repository
from tests.conftest import STORES, MakeTable
from tests.storage.bot_play import DAY_MS, GUESS_WINDOW_MS, HOUR_MS, guess_times
from tests.storage.stored_items import unwire

BEFORE = json.loads((Path(__file__).parent / "golden" / "counters.json").read_text())
SUBJECT = "guess:p_b0b0b0b0b0b0b0b0"  # a per-token guess budget's subject
# pk, two windows' counts, the newest window, the TTL and the write id: 94 bytes for this
# subject at today's window numbers (an 85-byte item grew to 580 in an hour before).
BOUND = 100


def expected_counts(times: list[int]) -> list[tuple[int, int]]:
    """What each count must return, from the requests alone: (requests so far in its window,
    requests in the window before)."""
    per_window: Counter[int] = Counter()
    found = []
    for t in times:
        window = t // GUESS_WINDOW_MS
        per_window[window] += 1
        found.append((per_window[window], per_window[window - 1]))
    return found


def stored(repo: DynamoRepository, subject: str) -> dict[str, Any]:
    key = {"pk": {"S": keys.counter_key(subject)}}
    item: dict[str, Any] = repo.client.get_item(TableName=repo.table_name, Key=key)["Item"]
    return item


def windows_in(item: dict[str, Any]) -> list[int]:
    return sorted(int(name[1:]) for name in item if name[0] == "c" and name[1:].isdigit())


def test_a_month_of_a_bots_guesses_keeps_two_windows_on_the_fake() -> None:
    times = list(guess_times(30 * DAY_MS))
    repo = InMemoryRepository()
    found = [repo.count(SUBJECT, t // GUESS_WINDOW_MS, GUESS_WINDOW_MS, 1) for t in times]
    assert found == expected_counts(times)
    assert len(times) > 60_000  # all day, every day
    assert list(repo._counters) == [SUBJECT] and len(repo._counters[SUBJECT]) <= 2


@pytest.mark.parametrize("store", STORES)
def test_a_bots_guesses_keep_its_counter_item_bounded(store: str, make_table: MakeTable) -> None:
    """Every count of six hours of play (about 600 guesses), its item read back after each:
    never more than two windows, never more than BOUND bytes, every count exact. Six hours
    have every kind of gap the month has (the model repeats itself); the month is the fake's,
    above, and `python -m tests.storage.bot_play` plays it on an engine (a few minutes)."""
    repo = make_table(store)
    times = list(guess_times(6 * HOUR_MS))
    found, sizes = [], []
    for t in times:
        window = t // GUESS_WINDOW_MS
        found.append(repo.count(SUBJECT, window, GUESS_WINDOW_MS, 1))
        item = stored(repo, SUBJECT)
        assert windows_in(item)[0] >= window - 1, item
        sizes.append(item_size(item))
    assert found == expected_counts(times)
    assert max(sizes) <= BOUND, max(sizes)


MONTH_MS = 30 * DAY_MS
DAILY_SPELL_MS = 10 * 60_000


@pytest.mark.parametrize("store", STORES)
def test_a_month_of_a_bots_budget_keeps_its_counter_item_bounded_on_an_engine(
    store: str, make_table: MakeTable
) -> None:
    """A month of the bot's guesses as the month's model sends them, on the engine: the first
    ten minutes of every day (about 450 counts over 30 days: all 67,000 of the month take about
    20 minutes on DynamoDB Local, `python -m tests.storage.bot_play`; the fake plays them all
    above), the item read back
    after each. The window numbers, the TTL and the counts are the month's, and every day begins
    after a night's idle spell: the code before left a window behind on most gaps, so its item
    would have grown all month (600 B after an hour); this one keeps two windows, BOUND bytes at
    most, from the first day to the last."""
    repo = make_table(store)
    start = next(guess_times(MONTH_MS))
    times = [t for t in guess_times(MONTH_MS) if (t - start) % DAY_MS < DAILY_SPELL_MS]
    per_day: dict[int, list[int]] = {}
    found = []
    for t in times:
        window = t // GUESS_WINDOW_MS
        found.append(repo.count(SUBJECT, window, GUESS_WINDOW_MS, 1))
        item = stored(repo, SUBJECT)
        assert windows_in(item)[0] >= window - 1, item
        per_day.setdefault((t - start) // DAY_MS, []).append(item_size(item))
    assert found == expected_counts(times)
    assert sorted(per_day) == list(range(30)) and len(times) > 400
    assert max(max(sizes) for sizes in per_day.values()) <= BOUND
    assert max(per_day[29]) <= max(per_day[0]) + 1  # the last day's item is the first day's


@pytest.mark.parametrize("store", ["memory", *STORES])
def test_counts_across_idle_spells_and_late_refunds_are_exact(
    store: str, make_table: MakeTable
) -> None:
    repo: Repository = InMemoryRepository() if store == "memory" else make_table(store)
    assert repo.count("k", 100, 60_000, 1) == (1, 0)
    assert repo.count("k", 101, 60_000, 2) == (2, 1)
    assert repo.count("k", 100, 60_000, -1) == (0, 0)  # a refund that arrives after 101 began
    assert repo.count("k", 101, 60_000, 1) == (3, 0)
    assert repo.count("k", 101 + DEPTH, 60_000, 1) == (1, 0)  # idle just short of DEPTH
    assert repo.count("k", 102 + DEPTH, 60_000, 1) == (1, 1)
    assert repo.count("k", 200, 60_000, 5) == (5, 0)  # idle far longer: rebuilt
    assert repo.count("k", 201, 60_000, 1) == (1, 5)
    assert repo.count("k", 199, 60_000, 1) == (0, 0)  # a caller far behind counts in vain
    assert repo.count("k", 201, 60_000, 1) == (2, 5)
    if isinstance(repo, DynamoRepository):
        assert windows_in(stored(repo, "k")) == [200, 201]


@pytest.mark.parametrize("store", ["memory", "dynamodb-local"])
def test_concurrent_counts_on_an_idle_counter_lose_none(store: str, make_table: MakeTable) -> None:
    """Real threads race to rebuild a counter idle for longer than DEPTH windows: every count
    sees its own total. Not on moto (see test_concurrent_counts_lose_none)."""
    repo: Repository = InMemoryRepository() if store == "memory" else make_table(store)
    repo.count("k", 1, 1_000, 7)
    with ThreadPoolExecutor(8) as pool:
        seen = list(pool.map(lambda _: repo.count("k", 50, 1_000, 1)[0], range(40)))
    assert sorted(seen) == list(range(1, 41))


@pytest.mark.parametrize("store", STORES)
def test_counters_stored_before_count_on_and_shrink(store: str, make_table: MakeTable) -> None:
    repo = make_table(store)
    for name in ("story", "hour_of_guesses"):
        attrs = {k: unwire(v) for k, v in BEFORE[name].items()}
        repo.client.put_item(TableName=repo.table_name, Item=attrs)
    # The story's counter (windows 100 and 103, counted with 60 s windows) in its next window:
    # window 103's count is the previous one's.
    assert repo.count("ip#10.0.0.1", 104, 60_000, 1) == (1, 1)
    assert windows_in(stored(repo, "ip#10.0.0.1")) == [103, 104]
    # A bot's guess budget after an hour of the old code (this module's model: 99 guesses):
    # 49 attributes, 600 bytes.
    assert len(list(guess_times(HOUR_MS))) == BEFORE["hour_of_guesses_counts"] == 99
    legacy = BEFORE["hour_of_guesses"]
    subject = legacy["pk"]["S"].removeprefix(keys.COUNTER)
    old = windows_in(legacy)
    assert BEFORE["hour_of_guesses_size"] == 600 and len(old) > 40
    last = old[-1]
    count = int(legacy[f"c{last}"]["N"])
    previous = int(legacy.get(f"c{last - 1}", {"N": "0"})["N"])
    assert repo.count(subject, last, GUESS_WINDOW_MS, 1) == (count + 1, previous)
    item = stored(repo, subject)
    assert windows_in(item) == [w for w in old if w >= last - 1] and item_size(item) <= BOUND
    assert repo.count(subject, last + 1, GUESS_WINDOW_MS, 1) == (1, count + 1)
