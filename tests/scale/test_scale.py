"""bench scale's model on a tiny run: what scales with N and what does not, the key families,
and the JSON the command prints."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.cli import main
from api.scale.keys import family_label, imbalance, key_kind
from api.scale.model import Scaled, report, scale
from api.scale.plan import creations_for, layout_for
from api.scale.population import Population
from api.scale.queue import QueueResult, run_queue
from api.scale.sample import Sample, SampleResult
from api.storage.keys import ACTIVE_INDEX, DUE_INDEX, OPEN_INDEX, active_keys
from api.storage.layout import Layout
from api.storage.metering.traffic import TABLE
from core.timing import Timing

LAYOUT = Layout(due_shards=8, lobby_due_shards=4)
POPULATION = Population()
SHORT = Timing(turn_ms=10_000, intro_ms=2_000, reconnect_ms=30_000)


@pytest.fixture(scope="module")
def runs() -> tuple[SampleResult, QueueResult]:
    sample = Sample(LAYOUT, POPULATION, seed=2, timing=SHORT).run(1, 1, 1)
    queue = run_queue(LAYOUT, POPULATION, joins_per_s=20.0, seed=2, budget=120)
    yield sample, queue
    sample.world.close()
    queue.world.close()


def scaled(runs: tuple[SampleResult, QueueResult], players: int, layout: Layout = LAYOUT) -> Scaled:
    sample, queue = runs
    return scale(players, layout, POPULATION, sample, queue, 600)


def key(s: Scaled, index: str, name: str) -> Any:
    return next(k for k in s.keys if (k.index, k.key) == (index, name))


def test_requests_lambda_and_cost_grow_with_the_players(runs: Any) -> None:
    one, two = scaled(runs, 20_000), scaled(runs, 40_000)
    assert one.api.requests > 0
    assert two.api.requests == pytest.approx(2 * one.api.requests)
    # The sweep runs once a minute whatever N is: everything else doubles.
    assert two.lambda_concurrency == pytest.approx(2 * one.lambda_concurrency, rel=1e-3)
    assert two.bill_per_hour()["total"] == pytest.approx(2 * one.bill_per_hour()["total"], rel=0.01)
    assert two.concurrent_tournaments == pytest.approx(2 * one.concurrent_tournaments)


def test_a_shard_carries_its_share_of_the_family_and_an_item_its_own_load(runs: Any) -> None:
    one, two = scaled(runs, 20_000), scaled(runs, 40_000)
    due_one, due_two = key(one, DUE_INDEX, "D#0"), key(two, DUE_INDEX, "D#0")
    assert due_one.write_units_per_s > 0
    # Twice the tournaments on the same shards: about twice the load (a bit less imbalance).
    assert 1.8 < due_two.write_units_per_s / due_one.write_units_per_s <= 2.0
    items = [k for k in one.keys if key_kind(k.index, k.key) == "entity"]
    assert items and {(k.key, k.write_units_per_s) for k in items} == {
        (k.key, k.write_units_per_s) for k in two.keys if key_kind(k.index, k.key) == "entity"
    }
    wider = scaled(runs, 20_000, Layout(due_shards=16, lobby_due_shards=4))
    ratio = key(wider, DUE_INDEX, "D#0").write_units_per_s / due_one.write_units_per_s
    assert 0.5 < ratio < 0.6  # twice the shards: half the load each, a little more imbalance


def test_the_concurrency_quota_covers_lambdas_invocation_rate_too(runs: Any) -> None:
    s = scaled(runs, 20_000)
    # Requests of a few milliseconds: 10 invocations a second per unit of quota binds first.
    assert s.lambda_concurrency_quota == pytest.approx((s.api.requests + 1 / 60) / 10)
    assert s.lambda_concurrency_quota > s.lambda_concurrency
    assert report(s)["lambda_concurrency_quota"] == round(s.lambda_concurrency_quota, 1)


def test_the_queue_is_measured_at_full_size(runs: Any) -> None:
    _, queue = runs
    fill = [k for k in scaled(runs, 20_000).keys if k.index == OPEN_INDEX]
    assert fill and all(key_kind(k.index, k.key) == "queue" for k in fill)
    assert queue.joined > 0 and queue.seconds > 0


def test_the_queue_keys_count_the_whole_window_to_its_last_request(runs: Any) -> None:
    _, queue = runs
    s = scaled(runs, 20_000)
    window, swept = queue.world.phases["queue"], queue.world.phases["sweep"]
    assert queue.window_ms[1] % window.tally.bucket_ms  # a window that ends mid-bucket
    queue_rate = s.phases["queue"].write_units / window.write_units  # windows a second at N

    def fill_writes(tally: Any) -> float:
        return sum(w for (i, _), (_, w) in tally.totals(0, 2**62).items() if i == OPEN_INDEX)

    expected = fill_writes(window.tally) * queue_rate + fill_writes(swept.tally) / 60
    assert expected > 0
    assert s.totals[OPEN_INDEX].write_units_per_s == pytest.approx(expected, rel=1e-9)


def test_keys_by_kind_and_family() -> None:
    assert key_kind(TABLE, "T#t_0123456789abcdef") == "entity"
    assert key_kind(TABLE, "R#tournament_state:ip:10.0.0.7") == "entity"
    assert key_kind(DUE_INDEX, "D#12") == key_kind(DUE_INDEX, "DL#3") == "hashed"
    assert key_kind(TABLE, "R#create:*#4") == key_kind(TABLE, "R#create:*") == "hashed"
    assert key_kind(OPEN_INDEX, "O#en#5#2") == "queue"
    assert key_kind(TABLE, "S#clock") == "instance"
    assert key_kind(TABLE, "X#anything") == "shared"  # scales with everything
    assert family_label(TABLE, "P#p_0123456789abcdef") == "P#…"
    assert family_label(OPEN_INDEX, "O#en#5#2") == "O#en#5*"
    assert family_label(DUE_INDEX, "D#7") == "D#*"
    assert imbalance(10_000) == pytest.approx(1.03)


def test_the_plan_follows_the_players() -> None:
    small, big = layout_for(10_000), layout_for(1_000_000)
    assert small == Layout()  # a small deployment keeps the defaults
    assert big.due_shards > small.due_shards and big.lobby_due_shards > small.lobby_due_shards
    assert big.fill_count("en") > 1 and creations_for(1_000_000) > creations_for(5_000) == 600


def test_the_report_has_the_figures_and_the_hottest_key(runs: Any) -> None:
    figures = report(scaled(runs, 20_000))
    hot = figures["dynamodb"]["hottest"]
    assert set(hot) == {"name", "key", "read_units_per_s", "write_units_per_s", "utilisation"}
    expected = max(hot["read_units_per_s"] / 3000, hot["write_units_per_s"] / 1000)
    assert hot["utilisation"] == pytest.approx(expected, abs=1e-3)
    for family in figures["dynamodb"]["families"]:
        assert family["utilisation"] <= hot["utilisation"]
    assert figures["players"] == 20_000 and figures["cost_per_hour_usd"] > 0


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "scale", "--players", "5000", "--json", "--queue-tournaments", "1"]
    args += ["--groups", "0", "--queue-joins", "60", "--due-shards", "8"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["players"] == 5000
    for name in ("requests_per_s", "lambda_concurrency", "cost_per_hour_usd"):
        assert figures[name] > 0
    assert figures["dynamodb"]["hottest"]["utilisation"] < 0.5


def test_the_heartbeats_copies_share_its_readers(runs: Any) -> None:
    """With copies (WT_CLOCK_COPIES) the instances' reads spread over them, and the heartbeat
    itself is read once per interval per copy, strongly; without, it carries them all."""
    n = 10_000_000
    alone = scaled(runs, n)
    copied = scaled(runs, n, Layout(due_shards=8, lobby_due_shards=4, clock_copies=4))
    single = key(alone, TABLE, "S#clock").read_units_per_s
    copies = [key(copied, TABLE, f"S#clock#{i}").read_units_per_s for i in range(4)]
    assert single > 3 * max(copies) > 0
    # The same readers, spread (the copies' model has every instance refresh once per
    # interval and adds the imbalance of a finite hash; the single item's, the sample's rate).
    assert sum(copies) == pytest.approx(single, rel=0.3)
    assert key(copied, TABLE, "S#clock").read_units_per_s < single / 20  # the refills only
    assert family_label(TABLE, "S#clock#3") == "S#clock#*"
    assert key_kind(TABLE, "S#clock#3") == "instance"


def test_the_active_index_is_spread_over_its_keys(runs: Any) -> None:
    s = scaled(runs, 1_000_000)
    active = [k for k in s.keys if k.index == ACTIVE_INDEX]
    assert {k.key for k in active} == {name for part in range(16) for name in active_keys(part)}
    assert key_kind(ACTIVE_INDEX, "A#3#2") == "hashed" and family_label(ACTIVE_INDEX, "A#3#2") == (
        "A#*"
    )


def test_the_plan_copies_the_heartbeat_only_when_one_item_would_be_hot() -> None:
    assert layout_for(1_000_000).clock_copies == 0
    assert layout_for(10_000_000).clock_copies >= 2
    assert "WT_CLOCK_COPIES" in layout_for(10_000_000).describe()
    assert Layout.from_env({"WT_CLOCK_COPIES": "4"}).clock_copies == 4
    with pytest.raises(ValueError):
        Layout.from_env({"WT_CLOCK_COPIES": "many"})
