"""`wordle-tournament fairplay`: operators list flagged players and decide (D19).

    wordle-tournament fairplay [--json] [--status held|flagged|confirmed|cleared|all]
    wordle-tournament fairplay confirm PLAYER --by OPERATOR
    wordle-tournament fairplay clear PLAYER --by OPERATOR
    wordle-tournament fairplay simulate [--quick] [--json]       (api/cli/fairplay_simulate.py)

The list shows, per player: their status and since when, the tournaments judged, the reasons
and the evidence behind each (core.fairplay.verdict, core.fairplay.farming), and their signals.
A flagged player is never named in public (D19): this list is for operators only.

Where the records come from: a `FairPlayStore`. `--items FILE` reads and writes a JSON-lines
file of `{"player": id, "fairplay": item}` (an export, and the tests); without it the store is
the service's, `api.service.fairplay.store(repo)` on the table the environment names
(`WT_TABLE`, `DYNAMODB_ENDPOINT`, as every command): the players whose status is not ok come
from a sparse partition of an index (never a scan), and a decision is a conditional write of the
player's statistics item.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from core.fairplay import record as fr
from core.fairplay.record import FairPlay, ReviewError
from core.fairplay.signals import Tally
from core.fairplay.verdict import DEFAULT, Thresholds

STATUSES = {
    "held": (fr.FLAGGED, fr.CONFIRMED),
    "flagged": (fr.FLAGGED,),
    "confirmed": (fr.CONFIRMED,),
    "cleared": (fr.CLEARED,),
    "all": fr.STATUSES,
}


class FairPlayStore(Protocol):
    """What the command needs of storage: the service layer implements it on the players'
    statistics items."""

    def records(self) -> Iterable[tuple[str, FairPlay]]:
        """Every player whose record is not plain `ok` (flagged, confirmed or cleared)."""
        ...

    def get(self, player_id: str) -> FairPlay | None: ...

    def swap(self, player_id: str, old: FairPlay, new: FairPlay) -> bool:
        """Store `new` if the stored record is still `old`; False if it changed meanwhile."""
        ...


# ---------------------------------------------------------------------------- pure views


def _figures(t: Tally) -> dict[str, Any]:
    def r(x: float | None, digits: int = 3) -> float | None:
        return None if x is None else round(x, digits)

    return {
        "tournaments": t.tournaments,
        "judged_rows": t.rows,
        "best": t.best,
        "near_best": t.near,  # skill 95 or more, the best included
        "mean_skill": r(None if t.mean_skill is None else 100 * t.mean_skill, 1),
        "words": t.guesses,
        "rare_words": r(t.rare_rate),
        "median_seconds": r(t.median_seconds, 1),
        "time_spread": r(t.time_spread),
        "time_slope": r(t.time_slope, 4),
    }


def entry(player_id: str, record: FairPlay, th: Thresholds = DEFAULT) -> dict[str, Any]:
    """One player's line for operators: status, reasons with their evidence, signals."""
    v = fr.flag(record, th)
    why = [{"reason": r.code, "strength": round(r.ratio, 2), "detail": r.detail} for r in v.reasons]
    farm = record.farm
    if "farm" in record.reasons or farm.handed or farm.refused:
        why.append(
            {
                "reason": "farm",
                "strength": None,
                "detail": f"{farm.handed_count} of the latest tournaments handed over by"
                f" walk-overs; {farm.refused} rating points refused in all"
                + (f"; latest pattern in tournament {farm.noticed}" if farm.noticed else ""),
            }
        )
    return {
        "player": player_id,
        "status": record.status,
        "since": record.status_at,
        "by": record.by,
        "reasons": list(record.reasons),
        "tournaments": record.tournaments,
        "score": round(v.score, 2),
        "why": why,
        "signals": {"all": _figures(record.all), "recent": _figures(record.recent)},
    }


def render(
    entries: Iterable[tuple[str, FairPlay]],
    statuses: Iterable[str] = STATUSES["held"],
    th: Thresholds = DEFAULT,
) -> dict[str, Any]:
    """The list operators see: players of the given statuses, strongest evidence first."""
    wanted = set(statuses)
    lines = [entry(pid, rec, th) for pid, rec in entries if rec.status in wanted]
    lines.sort(key=lambda e: (-e["score"], e["player"]))
    return {"count": len(lines), "players": lines}


def _when(ms: int | None) -> str:
    if ms is None:
        return "-"
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def text(listing: dict[str, Any]) -> str:
    if not listing["players"]:
        return "no players to show"
    out = []
    for e in listing["players"]:
        out.append(
            f"{e['player']}  {e['status']} since {_when(e['since'])}"
            f"{' by ' + e['by'] if e['by'] else ''}  reasons {', '.join(e['reasons']) or '-'}"
            f"  ({e['tournaments']} tournaments judged)"
        )
        out += [f"    {w['reason']}: {w['detail']}" for w in e["why"]]
    return "\n".join(out)


def decide(store: FairPlayStore, player_id: str, action: str, by: str, now: int) -> FairPlay:
    """Confirm or clear a player's record (core.fairplay.record), written only if nothing
    changed it meanwhile (a tournament may be adding to it): retried on a fresh read."""
    change = {"confirm": fr.confirm, "clear": fr.clear}[action]
    for _ in range(5):
        old = store.get(player_id)
        if old is None:
            raise ReviewError(f"player {player_id!r} has no fair-play record")
        new = change(old, by, now)
        if new == old or store.swap(player_id, old, new):
            return new
    raise RuntimeError(f"the record of {player_id!r} kept changing; try again")


# ---------------------------------------------------------------------------- stores


class FileStore:
    """Records in a JSON-lines file: `{"player": id, "fairplay": item}` per line."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, FairPlay]:
        out: dict[str, FairPlay] = {}
        for n, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    data = json.loads(line)
                    out[str(data["player"])] = fr.from_item(data["fairplay"])
                except (ValueError, KeyError, TypeError) as e:
                    raise ValueError(f"{self.path}:{n}: not a fair-play record ({e})") from e
        return out

    def records(self) -> Iterable[tuple[str, FairPlay]]:
        return [(p, r) for p, r in self._read().items() if r.status != fr.OK]

    def get(self, player_id: str) -> FairPlay | None:
        return self._read().get(player_id)

    def swap(self, player_id: str, old: FairPlay, new: FairPlay) -> bool:
        records = self._read()
        if records.get(player_id) != old:
            return False
        records[player_id] = new
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        lines = (json.dumps({"player": p, "fairplay": fr.to_item(r)}) for p, r in records.items())
        tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        os.replace(tmp, self.path)
        return True


def open_store(args: argparse.Namespace) -> FairPlayStore:
    if args.items:
        return FileStore(Path(args.items))
    from api import bootstrap
    from api.config import Settings
    from api.service import fairplay

    return fairplay.store(bootstrap.repository(Settings.from_env()))


def _failures() -> tuple[type[BaseException], ...]:
    """What the command reports in a line rather than a traceback."""
    from api.storage.repository import StorageError

    return (OSError, ValueError, RuntimeError, StorageError)


# ---------------------------------------------------------------------------- the command


def register(commands: Any) -> None:
    from api.cli import fairplay_simulate

    p = commands.add_parser(
        "fairplay", help="list players flagged by fair play, confirm or clear one (D19)"
    )
    p.add_argument("--items", metavar="FILE", help="a JSON-lines file of records (else storage)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--status", choices=sorted(STATUSES), default="held")
    p.set_defaults(handler=list_command)
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    for action, what in (("confirm", "confirm a flag"), ("clear", "clear a flagged player")):
        a = actions.add_parser(action, help=what)
        a.add_argument("player")
        a.add_argument("--by", required=True, metavar="OPERATOR", help="who decides")
        a.add_argument("--items", metavar="FILE", default=argparse.SUPPRESS)
        a.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
        a.set_defaults(handler=decide_command, decision=action)
    fairplay_simulate.register(actions)


def list_command(args: argparse.Namespace) -> int:
    try:
        listing = render(open_store(args).records(), STATUSES[args.status])
    except _failures() as e:
        print(f"fairplay: {e}", file=sys.stderr)
        return 2
    print(json.dumps(listing) if args.json else text(listing))
    return 0


def decide_command(args: argparse.Namespace) -> int:
    try:
        new = decide(open_store(args), args.player, args.decision, args.by, int(time.time() * 1000))
    except _failures() as e:
        print(f"fairplay: {e}", file=sys.stderr)
        return 2
    line = entry(args.player, new)
    print(json.dumps(line) if args.json else text({"players": [line]}))
    return 0
