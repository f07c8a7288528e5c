"""The items stored today, kept as a fixture: a story of repository calls that writes one item of
every kind (and every way of writing it), the table's raw items it leaves, and the records read
back. `golden/items.json` was captured from the code before the storage was split by its parts
(its reads again from main's code after the house bots added defaulted fields to tournaments;
the items were the same; and again when fair play (D19) added four items, C#p3, C#p4, T#t4 and
T#t5, and defaulted fields to the records read; and again when the house bots added defaulted
fields to players, lobbies and seats, with the story's D18 items at its end: every item stored
before is byte for byte the same), so a change that alters one stored byte, or can no longer
read what was stored, fails test_stored_items.py. `python -m tests.storage.stored_items` writes
it again: only ever on purpose.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from api.storage.records import ClockRecord, LobbyRecord, StatsRecord
from api.storage.repository import Delete, Put, Repository
from core.fairplay import record as fr
from core.fairplay.farming import FarmMemory
from core.fairplay.signals import Tally
from core.leaderboard import ALL, Board, Listed
from core.lobby import Lobby, LobbySeat
from tests.storage.factories import (
    finished_tournament,
    group,
    line,
    live_tournament,
    lobby,
    player,
    stats,
)

GOLDEN = Path(__file__).parent / "golden" / "items.json"
T0 = 1_760_000_000_000
DAY = 86_400_000
WRITE_ID = "<write id>"  # every commit's random id, the same in every capture

Raw = dict[str, Any]


def _board(name: str, as_of: int) -> Board:
    top = (Listed("p1", "Zoë ʻOʻ", 1210, T0), Listed("p3", "Ann", 1105, T0 - DAY))
    return Board(name, as_of, top, ((1200, 1), (1100, 1)), (as_of, as_of - 5))


def story(repo: Repository) -> dict[str, Any]:
    """Write one of everything through `repo`; the records read back, by name."""
    counts = write(repo)
    return {**reads(repo), "counts": counts}


def write(repo: Repository) -> list[tuple[int, int]]:
    """One item of every kind, written every way there is; the rate-limit counts it saw."""
    # Players: a bare one, one with every field set, an update, a contact stamp.
    repo.commit([Put(player("p1"), new=True)])
    full = player(
        "p2",
        rating=1234,
        played=3,
        lobby_id="l1",
        queued_at=T0,
        tournament_id="t1",
        last_tournament_id="t0",
        group_id="g1",
        bot=True,
        last_contact=T0 + 1,
    )
    repo.commit([Put(full, new=True)])
    p1 = repo.get_player("p1")
    assert p1 is not None
    repo.commit([Put(replace(p1, rating=1010, played=1, nickname="Zoë ʻOʻ"))])
    repo.touch_player("p1", T0 + 5)
    # A group, and the lobbies: open (indexed, due), a group's, started, merged into another.
    repo.commit([Put(group("g1"), new=True)])
    seated = lobby("l1", ratings=(1000, 1010), created_at=T0, seen=T0)
    repo.commit([Put(replace(seated, due=T0 + 10_000), new=True)])
    repo.touch_lobby("l1", "l1-p0", T0 + 20)
    l1 = repo.get_lobby("l1")
    assert l1 is not None
    repo.reschedule_lobby("l1", l1.version, T0 + 30_000)
    grouped = Lobby("l4", "uz", T0, (LobbySeat("p1", 1010, T0),), "g1", 1010.5)
    repo.commit([Put(replace(lobby("l4"), lobby=grouped), new=True)])
    repo.commit([Put(lobby("l2", created_at=T0, tournament_id="t1"), new=True)])
    merged = replace(lobby("l3", created_at=T0), lobby=Lobby("l3", "en", T0), moved_to="l1")
    repo.commit([Put(merged, new=True)])
    # Tournaments: a live one updated (UpdateItem), stamped and rescheduled; a finished one;
    # one written and deleted (nothing left).
    repo.commit([Put(live_tournament("t1", now=T0), new=True)])
    repo.touch("t1", "p0", T0 + 100)
    t1 = repo.get_tournament("t1")
    assert t1 is not None and t1.due is not None
    repo.commit([Put(replace(t1, due=t1.due + 1_000))])
    t1 = repo.get_tournament("t1")
    assert t1 is not None and t1.due is not None
    repo.reschedule("t1", t1.version, t1.due + 5)
    repo.commit([Put(finished_tournament("t2"), new=True)])
    repo.commit([Put(live_tournament("t9", now=T0), new=True)])
    t9 = repo.get_tournament("t9")
    assert t9 is not None
    repo.commit([Delete(t9)])
    # Players' history and statistics: new, then a later finish (with `before`), a bot's.
    first = [Put(line("p1", "t2", T0), new=True), Put(StatsRecord("p1", stats(at=T0)), new=True)]
    repo.commit(first)
    [s1] = repo.get_stats(["p1"])
    later = stats(results=4, at=T0 + DAY)
    repo.commit([Put(line("p1", "t3", T0 + DAY, place=8), new=True), Put(replace(s1, stats=later))])
    repo.commit([Put(StatsRecord("p2", stats(nickname="Bot", bot=True, results=1)), new=True)])
    write_fair_play(repo)
    # Rate-limit counts, storage's heartbeat, leaderboard snapshots and the refresh claim.
    counts = [
        repo.count("ip#10.0.0.1", 100, 60_000, 1),
        repo.count("ip#10.0.0.1", 100, 60_000, 2),
        repo.count("ip#10.0.0.1", 101, 60_000, -1),
        repo.count("ip#10.0.0.1", 103, 60_000, 1),
    ]
    assert repo.put_clock(None, ClockRecord(T0))
    assert repo.put_clock(ClockRecord(T0), ClockRecord(T0 + 1_000, ((T0 - 9_000, T0 - 2_000),)))
    repo.save_board(_board(ALL, T0))
    repo.save_board(_board("en", T0 - 10))
    repo.save_part(3, {ALL: _board(ALL, T0), "uz": _board("uz", T0 - 7)})
    assert repo.claim_refresh(T0, 60_000)
    # D18 (appended after the capture above; the items before are unchanged): an idle house
    # bot (listed in `fill`), one claimed by a tournament, and a lobby with a bot's seat and
    # the time its last seat was taken.
    repo.commit([Put(player("p3", token_hash="", bot=True, house=True, rating=1187), new=True)])
    busy = player("p4", token_hash="", bot=True, house=True, tournament_id="t1")
    repo.commit([Put(busy, new=True)])
    mixed = Lobby("l5", "kk", T0, (LobbySeat("p1", 1010, T0), LobbySeat("p4", 990, T0, True)))
    repo.commit([Put(LobbyRecord(mixed, due=T0 + 15_000, seated_at=T0), new=True)])
    return counts


def _fair_play(status: str) -> fr.FairPlay:
    tally = Tally(1, 4, 3, 1, 390, 38_500, 9, 2, 6, 1_500, 41_000, 4_200, 31_000, 10_600)
    farm = FarmMemory((0x0BADF00D, 0x12345678), 0b101, 25, "t_farm")
    held = status != fr.OK
    return fr.FairPlay(
        tournaments=1,
        all=tally,
        current=tally,
        farm=farm,
        status=status,
        status_at=T0 + 3 if held else None,
        reasons=("farm", "choices") if held else (),
    )


def write_fair_play(repo: Repository) -> None:
    """D19's additions: statistics with a fair-play record (an ok one, in `active`; a flagged
    one, under the review partition instead), a tournament written with the rating changes fair
    play applied, and one updated with them."""
    repo.commit([Put(StatsRecord("p3", stats(at=T0), fairplay=_fair_play(fr.OK)), new=True)])
    flagged = StatsRecord("p4", stats(nickname="Ann", at=T0), fairplay=_fair_play(fr.FLAGGED))
    repo.commit([Put(flagged, new=True)])
    done = replace(finished_tournament("t4"), rating_changes={"p0": 0, "p5": -3})
    repo.commit([Put(done, new=True)])
    repo.commit([Put(live_tournament("t5", now=T0), new=True)])
    t5 = repo.get_tournament("t5")
    assert t5 is not None
    repo.commit([Put(replace(t5, rating_changes={"p2": 4}))])


def reads(repo: Repository) -> dict[str, Any]:
    """Every record the story stored, read back (the rate-limit counts aside)."""
    return {
        "players": repo.get_players(["p1", "p2", "p3", "p4"]),
        "idle_bots": repo.idle_bots(1200, 100, 8),
        "group": repo.get_group("g1"),
        "lobbies": [repo.get_lobby(lid) for lid in ("l1", "l2", "l3", "l4", "l5")],
        "tournaments": [repo.get_tournament(tid) for tid in ("t1", "t2", "t9")],
        "stats": repo.get_stats(["p1", "p2"]),
        "history": repo.history("p1", 10),
        "clock": repo.get_clock(consistent=True),
        "boards": [repo.get_board(name) for name in (ALL, "en")],
        "parts": repo.get_parts(),
        "active": sorted(repo.active_players(0), key=lambda e: e.player_id),
        "fair_play": {
            "stats": repo.get_stats(["p3", "p4"]),
            "reviews": list(repo.fair_play_reviews()),
            "tournaments": [repo.get_tournament(tid) for tid in ("t4", "t5")],
        },
    }


# ---------------------------------------------------------------------------- plain JSON


def plain(value: Any) -> Any:
    """Records and what they hold as JSON-able values (dataclasses as dicts, bytes as base64)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return {"base64": base64.b64encode(bytes(value)).decode()}
    return value


def _wire(value: Any) -> Any:
    """A raw attribute value (DynamoDB's wire format) as JSON, binaries in base64."""
    kind, inner = next(iter(value.items()))
    if kind == "B":
        return {"B": base64.b64encode(inner).decode()}
    if kind == "M":
        return {"M": {k: _wire(v) for k, v in sorted(inner.items())}}
    if kind == "L":
        return {"L": [_wire(v) for v in inner]}
    return {kind: inner}


def unwire(value: Any) -> Any:
    """The inverse of `_wire`: a fixture's attribute value as botocore takes it."""
    kind, inner = next(iter(value.items()))
    if kind == "B":
        return {"B": base64.b64decode(inner)}
    if kind == "M":
        return {"M": {k: unwire(v) for k, v in inner.items()}}
    if kind == "L":
        return {"L": [unwire(v) for v in inner]}
    return {kind: inner}


def scanned(client: Any, table: str) -> list[Raw]:
    """Every item of the table in the wire format as JSON, by key, write ids made alike."""
    items: list[Raw] = []
    start: dict[str, Any] | None = None
    while True:
        page = client.scan(
            TableName=table, ConsistentRead=True, **({"ExclusiveStartKey": start} if start else {})
        )
        items += page["Items"]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    found = []
    for item in sorted(items, key=lambda i: i["pk"]["S"]):
        raw = {name: _wire(value) for name, value in sorted(item.items())}
        if "w" in raw:
            raw["w"] = {"S": WRITE_ID}
        found.append(raw)
    return found


def capture(repo: Any) -> dict[str, Any]:
    """The story's raw items and reads on a DynamoRepository's (empty) table."""
    reads = story(repo)
    return {"items": scanned(repo.client, repo.table_name), "reads": plain(reads)}


def main() -> int:
    """Capture the fixture on moto (in this process)."""
    import uuid

    from api.config import Settings
    from api.local.moto_server import MotoServer
    from api.storage.dynamodb.repository import DynamoRepository

    server = MotoServer()
    try:
        settings = Settings(table_name=f"golden-{uuid.uuid4().hex[:8]}")
        repo = DynamoRepository(replace(settings, dynamodb_endpoint=server.endpoint))
        repo.create_table()
        data = capture(repo)
        repo.delete_table()
    finally:
        server.stop()
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(data['items'])} items written to {GOLDEN}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
