"""D19: a player's fair-play record, the value kept in their statistics item.

It holds sums, not lists, so its size is fixed whatever the number of tournaments (a few hundred
bytes as JSON, `to_item`):

- `all`: the signals of every tournament since the start (or since an operator cleared them);
- `previous` and `current`: the latest complete block of `BLOCK` tournaments and the ones
  after it, so that the recent tournaments (`recent`: the latest `BLOCK` to 2 × `BLOCK` − 1)
  and the current block alone are judged on their own too: a long honest history does not hide
  a solver who starts later;
- the farm memory (core.fairplay.farming);
- the review: `ok`, `flagged` (by the verdict or the farm rule), `confirmed` or `cleared` by an
  operator. A flagged or confirmed player is kept off the leaderboards (`listed`), never named
  in public; a cleared one is judged again from new tournaments only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.fairplay import farming, verdict
from core.fairplay.farming import EMPTY_MEMORY, FarmMemory
from core.fairplay.signals import EMPTY, FIELDS, Tally
from core.fairplay.verdict import DEFAULT, Reason, Thresholds, Verdict

BLOCK = 5  # tournaments per block of the recent windows

OK, FLAGGED, CONFIRMED, CLEARED = "ok", "flagged", "confirmed", "cleared"
STATUSES = (OK, FLAGGED, CONFIRMED, CLEARED)
FORMAT = 1


class ReviewError(ValueError):
    """An operator's decision that does not apply to the record as it is."""


@dataclass(frozen=True, slots=True)
class FairPlay:
    tournaments: int = 0  # judged, ever (the tallies restart when an operator clears)
    all: Tally = EMPTY
    previous: Tally = EMPTY
    current: Tally = EMPTY
    farm: FarmMemory = EMPTY_MEMORY
    status: str = OK
    status_at: int | None = None  # when the status was set
    reasons: tuple[str, ...] = ()  # why it was flagged: "best", "close", "mechanical", "farm"
    by: str | None = None  # the operator who confirmed or cleared

    @property
    def recent(self) -> Tally:
        return self.previous + self.current

    @property
    def held(self) -> bool:
        """Flagged or confirmed: off the leaderboards."""
        return self.status in (FLAGGED, CONFIRMED)


EMPTY_RECORD = FairPlay()


def listed(record: FairPlay | None) -> bool:
    """May the player's results count on the leaderboards (D19)?"""
    return record is None or not record.held


def add(record: FairPlay, signals: Tally) -> FairPlay:
    """`record` with one tournament's signals added (core.fairplay.signals)."""
    current = record.current + signals
    previous = record.previous
    if current.tournaments >= BLOCK:
        previous, current = current, EMPTY
    return replace(
        record,
        tournaments=record.tournaments + signals.tournaments,
        all=record.all + signals,
        previous=previous,
        current=current,
    )


def windows(record: FairPlay) -> list[tuple[str, Tally]]:
    """The tallies judged: every tournament since the start (or the latest clear), the recent
    ones (`previous` and `current`) and the current block alone, each once."""
    out = [("all", record.all)]
    for name, t in (("recent", record.recent), ("current", record.current)):
        if t.tournaments and t.tournaments != out[-1][1].tournaments:
            out.append((name, t))
    return out


def flag(record: FairPlay, th: Thresholds = DEFAULT) -> Verdict:
    """The verdict on every window (`windows`): a reason holds if it holds on any of them, and
    is told with the window where it is strongest ("recent choices": on the recent ones)."""
    strongest: dict[str, Reason] = {}
    score = 0.0
    for name, t in windows(record):
        v = verdict.flag(t, th)
        score = max(score, v.score)
        for r in v.reasons:
            code = r.code if name == "all" else f"{name} {r.code}"
            kept = strongest.get(r.code)
            if kept is None or r.ratio > kept.ratio:
                strongest[r.code] = Reason(code, r.ratio, r.detail)
    reasons = tuple(sorted(strongest.values(), key=lambda r: -r.ratio))
    return Verdict(bool(reasons), reasons, score)


def judge(record: FairPlay, now: int, th: Thresholds = DEFAULT) -> FairPlay:
    """Flag the record if its verdict says so and no flag or decision stands already."""
    if record.status in (FLAGGED, CONFIRMED):
        return record
    v = flag(record, th)
    if not v.flagged:
        return record
    return replace(record, status=FLAGGED, status_at=now, reasons=_codes(v.reasons), by=None)


def _codes(reasons: tuple[Reason, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(r.code.split()[-1] for r in reasons))


def settle_farm(record: FairPlay, settlement: farming.Settlement, now: int) -> FairPlay:
    """Keep a settlement's farm memory (core.fairplay.farming.settle) and flag a noticed farm."""
    record = replace(record, farm=settlement.memory)
    if not settlement.notice:
        return record
    if record.status in (FLAGGED, CONFIRMED):
        if "farm" in record.reasons:
            return record
        return replace(record, reasons=(*record.reasons, "farm"))
    return replace(record, status=FLAGGED, status_at=now, reasons=("farm",), by=None)


def farm_flagged(record: FairPlay | None) -> bool:
    """Does farming rule 3 apply (every walk-over refused)?"""
    return record is not None and record.held and "farm" in record.reasons


# ---------------------------------------------------------------------------- operators


def confirm(record: FairPlay, by: str, now: int) -> FairPlay:
    """An operator confirms a flag: the player stays off the leaderboards. Confirming a
    confirmed record changes nothing (a retried command)."""
    if record.status == CONFIRMED:
        return record
    if record.status != FLAGGED:
        raise ReviewError(f"only a flagged player can be confirmed (this one is {record.status})")
    return replace(record, status=CONFIRMED, status_at=now, by=by)


def clear(record: FairPlay, by: str, now: int) -> FairPlay:
    """An operator clears a flagged or confirmed player: back on the leaderboards, and judged
    again from new tournaments only (the evidence they reviewed restarts from nothing).
    Clearing a cleared record changes nothing."""
    if record.status == CLEARED:
        return record
    if record.status not in (FLAGGED, CONFIRMED):
        raise ReviewError("only a flagged or confirmed player can be cleared (this one is ok)")
    return replace(
        record,
        all=EMPTY,
        previous=EMPTY,
        current=EMPTY,
        farm=farming.forget_pattern(record.farm),
        status=CLEARED,
        status_at=now,
        reasons=(),
        by=by,
    )


# ---------------------------------------------------------------------------- stored form


def to_item(record: FairPlay) -> dict[str, Any]:
    """Compact JSON-ready data: each tally a list of integers in `signals.FIELDS` order."""
    item: dict[str, Any] = {
        "f": FORMAT,
        "n": record.tournaments,
        "a": list(record.all.values()),
        "p": list(record.previous.values()),
        "c": list(record.current.values()),
        "q": "".join(f"{k:08x}" for k in record.farm.quitters),
        "h": record.farm.handed,
        "r": record.farm.refused,
        "s": record.status,
    }
    if record.farm.noticed is not None:
        item["t"] = record.farm.noticed
    if record.status_at is not None:
        item["at"] = record.status_at
    if record.reasons:
        item["why"] = list(record.reasons)
    if record.by is not None:
        item["by"] = record.by
    return item


def from_item(item: dict[str, Any] | None) -> FairPlay:
    """The record stored by `to_item` (None or nothing stored yet: an empty record)."""
    if not item:
        return EMPTY_RECORD
    if item.get("f") != FORMAT:
        raise ValueError(f"unknown fair-play record format {item.get('f')!r}")
    status = str(item["s"])
    if status not in STATUSES:
        raise ValueError(f"unknown fair-play status {status!r}")
    q = str(item["q"])
    return FairPlay(
        tournaments=int(item["n"]),
        all=_tally(item["a"]),
        previous=_tally(item["p"]),
        current=_tally(item["c"]),
        farm=FarmMemory(
            quitters=tuple(int(q[i : i + 8], 16) for i in range(0, len(q), 8)),
            handed=int(item["h"]),
            refused=int(item["r"]),
            noticed=item.get("t"),
        ),
        status=status,
        status_at=None if item.get("at") is None else int(item["at"]),
        reasons=tuple(str(r) for r in item.get("why", ())),
        by=item.get("by"),
    )


def _tally(values: list[Any]) -> Tally:
    if len(values) != len(FIELDS):
        raise ValueError("a stored tally has the wrong number of fields")
    return Tally(*(int(v) for v in values))
