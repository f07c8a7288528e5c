"""bench scale's figures for several N as one PNG (docs/capacity.png)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

API_GATEWAY_DEFAULT_RPS = 10_000  # the account's HTTP API throttle, per region
LAMBDA_DEFAULT_CONCURRENCY = 1_000  # concurrent executions, per region


def draw(results: Sequence[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    players = [f["players"] for f in results]
    fig, (load, keys) = plt.subplots(1, 2, figsize=(12, 4.8))

    load.plot(players, [f["requests_per_s"] for f in results], "o-", label="API Gateway requests/s")
    load.plot(players, [f["lambda_concurrency"] for f in results], "s-", label="Lambda concurrency")
    quota = [f["lambda_concurrency_quota"] for f in results]
    load.plot(players, quota, "^:", label="Lambda concurrency quota (10 invocations/s each)")
    load.axhline(API_GATEWAY_DEFAULT_RPS, color="C0", ls="--", lw=1, label="default rps quota")
    load.axhline(LAMBDA_DEFAULT_CONCURRENCY, color="C1", ls="--", lw=1, label="default concurrency")
    for f in results:
        load.annotate(
            f"${f['cost_per_hour_usd']:,.0f}/h",
            (f["players"], f["requests_per_s"]),
            textcoords="offset points",
            xytext=(-10, 8),
            fontsize=8,
        )
    load.set_xscale("log")
    load.set_yscale("log")
    load.set_xlabel("concurrent players")
    load.set_title("Load and cost per hour")
    load.legend(fontsize=8, loc="upper left")
    load.grid(True, which="both", alpha=0.3)

    names = list(results[0]["dynamodb"]["hottest_by_index"])
    width = 0.8 / len(names)
    for i, name in enumerate(names):
        values = [100 * f["dynamodb"]["hottest_by_index"][name]["utilisation"] for f in results]
        xs = [j + (i - (len(names) - 1) / 2) * width for j in range(len(results))]
        bars = keys.bar(xs, values, width, label=f"hottest key of `{name}`")
        for bar, f in zip(bars, results, strict=True):
            key = f["dynamodb"]["hottest_by_index"][name]["key"]
            keys.annotate(
                key if len(key) < 14 else key[:12] + "…",
                (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                ha="center",
                va="bottom",
                fontsize=6,
                rotation=90,
                xytext=(0, 2),
                textcoords="offset points",
            )
    keys.axhline(50, color="red", ls="--", lw=1, label="goal: 50 % of a partition")
    keys.set_xticks(range(len(results)), [f"{n:,}" for n in players])
    keys.set_xlabel("concurrent players (each with its planned shard counts)")
    keys.set_ylabel("% of the partition's limit (3,000 r/s or 1,000 w/s)")
    keys.set_ylim(0, 100)
    keys.set_title("Hottest partition key per table and index")
    keys.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
