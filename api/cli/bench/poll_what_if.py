"""`bench polls --what-if`: what the ≥ 5× saving over naive polling would cost players.

The service's poll advice (api/http/polling.py) keeps two promises at once: an opponent's row
is on screen within 1.2 s (staleness p95), and a new round within 1.2 s of its intro's start
(R2: the 6 s intro seen whole; a round is never discovered late). Each variant here breaks
one of them, or changes the prices, on the same seeded tournaments as the advice itself, so
that what each lever would give can be read beside what it would take away. The service never
runs a variant: they exist for this table (docs/benchmarks.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from api.http import polling
from api.loadtest.prices import PriceModel
from core.timing import Timing

PRICES = PriceModel()


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    what_it_takes: str
    advice: dict[str, Any] = field(default_factory=dict)  # api.http.polling's constants
    contact_ms: int | None = None  # D9's contact interval (Timing.contact_interval_ms)
    prices: PriceModel = PRICES


VARIANTS = (
    Variant("the service's advice", "nothing: both promises kept"),
    Variant(
        "waiting players poll every 2.3 s",
        "a new round is seen up to 2.3 s into its 6 s intro",
        {"ROUND_EVERY_MS": 2_300},
    ),
    Variant(
        "waiting players poll every 3 s",
        "a new round is seen up to 3 s into its 6 s intro",
        {"ROUND_EVERY_MS": 3_000},
    ),
    Variant(
        "a quieter start: 0.6 of the usual answer time",
        "more opponents' rows seen late (staleness p95)",
        {"PACE_SHARE": 0.6},
    ),
    Variant(
        "every 1.3 s while a guess may come",
        "opponents' rows seen up to 1.3 s late",
        {"EVERY_MS": 1_300, "ROUND_EVERY_MS": 1_300},
    ),
    Variant(
        "contact written every 20 s",
        "D9: a player silent for 40 s may be taken as gone (60 s asked)",
        contact_ms=20_000,
    ),
    Variant(
        "waiting 3 s, start at 0.6, contact every 20 s",
        "both promises broken, and D9's window",
        {"ROUND_EVERY_MS": 3_000, "PACE_SHARE": 0.6},
        contact_ms=20_000,
    ),
    Variant(
        "no per-request gateway charge",
        "leaving API Gateway (e.g. function URLs), outside the design",
        prices=replace(PRICES, api_gateway_per_request=0.0),
    ),
)


@contextmanager
def applied(variant: Variant) -> Iterator[None]:
    """The variant's advice and contact interval for the duration of the block."""
    missing = [name for name in variant.advice if not hasattr(polling, name)]
    if missing:
        raise AttributeError(f"api.http.polling has no {', '.join(missing)}")
    saved = {name: getattr(polling, name) for name in variant.advice}
    contact = Timing.__dict__["contact_interval_ms"]
    try:
        for name, value in variant.advice.items():
            setattr(polling, name, value)
        if variant.contact_ms is not None:
            ms = variant.contact_ms
            Timing.contact_interval_ms = property(lambda _: ms)  # type: ignore[method-assign,assignment]
        yield
    finally:
        for name, value in saved.items():
            setattr(polling, name, value)
        Timing.contact_interval_ms = contact  # type: ignore[method-assign]


def table(
    play_all: Callable[[], Any], summary: Callable[[Any, PriceModel], dict[str, Any]]
) -> None:
    """Play the same tournaments under each variant (`play_all` returns a tally) and print one
    line each: polls per player-minute, staleness and new-round p95 with the share later than
    1.2 s, the modelled ratio to naive polling, and what the variant would take from players."""
    print(
        f"{'variant':<47} {'polls/min':>9}  {'staleness p95 (late)':>20}  "
        f"{'new round p95 (late)':>20}  {'ratio':>6}"
    )
    for variant in VARIANTS:
        with applied(variant):
            tally = play_all()
        s = summary(tally, variant.prices)
        print(
            f"{variant.name:<47} {s['polls_per_minute']:9.1f}  "
            f"{s['staleness_p95']:>9} ms ({s['staleness_late']:5.1%})  "
            f"{s['new_round_p95']:>9} ms ({s['new_round_late']:5.1%})  {s['ratio']:5.2f}×"
        )
        print(f"{'':<4}takes: {variant.what_it_takes}")
