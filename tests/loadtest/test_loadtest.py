"""A short load test against the local stack: the report counts exactly the requests made."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from api.cli.loadtest import run_loadtest
from api.config import Settings
from api.loadtest.prices import Bill, PriceModel
from api.loadtest.report import POLL, percentile, plot, summary
from core.timing import Timing


def test_short_loadtest_counts_match_the_requests_the_server_served(tmp_path: Path) -> None:
    settings = Settings(
        timing=Timing(turn_ms=3000, intro_ms=200, reconnect_ms=60_000),
        rate_limits=False,
        bot_key="load-key",
    )
    report, harness, stack = run_loadtest(
        tournaments=2, duration_s=5, settings=settings, think_scale=0.5
    )
    assert stack is not None
    try:
        served = stack.instrument.snapshot()
        made = harness.collector.exchanges
        # Every request the bots made, and only those, reached the server and the report.
        assert report["requests"]["total"] == len(made) == len(served)
        assert report["server"]["total"] == len(served)
        by_server = Counter(r.label for r in served)
        assert report["server"]["by_endpoint"] == dict(sorted(by_server.items()))
        assert {k: v["count"] for k, v in report["requests"]["by_endpoint"].items()} == dict(
            by_server
        )
        assert {e.request_id for e in made} == {r.request_id for r in served}
        assert report["polls"]["count"] == by_server[POLL] > 0
        # Every poll is counted by what its bot waited for.
        assert sum(harness.collector.situations.values()) == by_server[POLL]
        rates = report["polls"]["per_player_minute_by_situation"]
        assert abs(sum(rates.values()) - report["polls"]["per_player_minute"]) < 1e-6
        statuses = Counter(r.status for r in served if r.label == POLL)
        assert report["polls"]["not_modified"] == statuses[304]
        assert report["requests"]["errors"] == 0, report["requests"]["error_kinds"]
        assert report["tournaments"]["started"] == 2
        assert by_server["POST /v1/players"] == 16  # 8 bots per tournament
        # The capacity meter saw the requests' storage work.
        ddb = report["dynamodb"]
        assert ddb["in_requests"]["read_units"] == sum(r.read_units for r in served) > 0
        assert ddb["in_requests"]["write_units"] == sum(r.write_units for r in served) > 0
        cost = report["cost_per_tournament"]
        assert cost["measured"]["usage"]["requests"] == len(made) / 2  # none finished: partial
        assert cost["naive"]["computed"] is True
        # Every naive poll writes; whether it costs more in all depends on the timers (with
        # these 3 s turns the advice comes about as often as every second).
        assert cost["naive"]["usage"]["write_units"] > cost["measured"]["usage"]["write_units"]
        assert cost["naive"]["usd"]["total"] > 0 and cost["measured"]["usd"]["total"] > 0
        # Behind a function URL the same requests lose the gateway's charge, nothing else.
        doors = cost["by_front_door"]
        assert doors["api_gateway"]["measured_usd"] == cost["measured"]["usd"]["total"]
        gateway = cost["measured"]["usd"]["api_gateway"]
        assert gateway > 0
        assert doors["function_url"]["measured_usd"] == pytest.approx(
            cost["measured"]["usd"]["total"] - gateway
        )
        assert doors["function_url"]["naive_usd"] == pytest.approx(
            cost["naive"]["usd"]["total"] - cost["naive"]["usd"]["api_gateway"]
        )
        # Logs are priced from the lines the app wrote: the requests that changed something
        # (players, groups, guesses) have one each; a successful poll rarely does.
        logged = {r.label: r.log_bytes for r in served}
        assert logged["POST /v1/players"] > 100
        assert sum(r.log_bytes for r in served) == cost["measured"]["usage"]["log_bytes"] * 2
        assert cost["measured"]["usd"]["logs"] > 0
        polls = [r.log_bytes for r in served if r.label == POLL]
        assert sum(b > 0 for b in polls) <= len(polls) // 10 + 3  # sampled, 1 in 100
        json.dumps(report)  # the JSON file's content
        assert "server counted" in summary(report)
        assert "behind a Lambda function URL instead" in summary(report)
        plot(harness, tmp_path / "latency.png")
        assert (tmp_path / "latency.png").stat().st_size > 10_000
    finally:
        stack.close()


def test_percentile_is_nearest_rank() -> None:
    assert percentile([], 99) is None
    assert percentile([5.0], 50) == 5.0
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0


def test_price_model_bills_each_service() -> None:
    prices = PriceModel(lambda_memory_mb=1024)
    bill = Bill(requests=1_000_000, gb_seconds=0, read_units=1_000_000, write_units=1_000_000)
    usd = bill.dollars(prices)
    assert usd["api_gateway"] == 1.0
    assert abs(usd["lambda"] - 0.2) < 1e-9
    assert abs(usd["dynamodb"] - 0.75) < 1e-9
    assert prices.lambda_gb_seconds(0.2) == 0.001  # at least one billed millisecond, 1 GB
