"""Players' records as items: history lines, statistics, and leaderboard snapshots.

- `H#<player>#<tournament>`: a history line (core.results.Result), written once (a new item),
  in the transaction that fixes the place. Indexed by `history` (player, finish time).
- `C#<player>`: statistics (core.stats.Stats), versioned like every record. While the player
  is no bot and has finished a tournament, indexed by `active` (shard, last finish), which
  projects the nickname, rating and languages the leaderboards need.
- `B#<board>#<copy>`: a leaderboard snapshot (core.leaderboard.Board) as compressed JSON,
  written in COPIES copies that readers pick at random (so no copy is a hot key), each replaced
  only by a newer snapshot. `B#part#<n>`: the boards of one part of the players (merged into
  the snapshots). `B#refresh`: when the last refresh was claimed.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Mapping
from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
)

from api.storage.dynamodb.item_base import Item
from api.storage.dynamodb.table import active_shard, history_sort_key
from api.storage.records import HistoryRecord, StatsRecord
from core.leaderboard import Board, Entry, Listed
from core.results import Result
from core.stats import Before, Stats

HISTORY_PREFIX = "H#"
STATS_PREFIX = "C#"
BOARD_PREFIX = "B#"
REFRESH_KEY = "B#refresh"
PART_PREFIX = "B#part#"
COPIES = 4
_POINT = struct.Struct(">qi")  # a rating chart's point: time (ms), rating


class HistoryItem(Item):
    hp = UnicodeAttribute()  # the player: the history index's partition
    hf = UnicodeAttribute()  # finished_at (13 digits) # tournament: its sort key
    ti = UnicodeAttribute()  # tournament_id
    lg = UnicodeAttribute()  # language
    sa = NumberAttribute()  # started_at
    fa = NumberAttribute()  # finished_at
    pc = NumberAttribute()  # place
    rb = NumberAttribute()  # rating_before
    ra = NumberAttribute()  # rating_after
    rn = NumberAttribute()  # rounds
    dw = NumberAttribute()  # duels won
    dd = NumberAttribute()  # duels drawn
    dl = NumberAttribute()  # duels lost
    wi = ListAttribute(of=NumberAttribute)  # wins_in
    lf = BooleanAttribute()  # left


class StatsItem(Item):
    nn = UnicodeAttribute()  # nickname
    rt = NumberAttribute()  # rating
    bt = BooleanAttribute()  # bot
    n = NumberAttribute()  # played
    wn = NumberAttribute()  # wins
    po = NumberAttribute()  # podiums
    pt = NumberAttribute()  # place total
    sk = NumberAttribute()  # streak
    bs = NumberAttribute()  # best streak
    dw = NumberAttribute()
    dd = NumberAttribute()
    dl = NumberAttribute()
    gs = ListAttribute(of=NumberAttribute)  # guesses
    cp = BinaryAttribute(legacy_encoding=False)  # chart points, packed
    ls = MapAttribute[str, Any]()  # type: ignore[no-untyped-call] # language → last finished
    lp = NumberAttribute(null=True)  # last_played: the active index's sort key
    ra = NumberAttribute(null=True)  # recorded_at
    ll = UnicodeAttribute(null=True)  # latest_language
    br = NumberAttribute(null=True)  # before: rating
    bra = NumberAttribute(null=True)  # before: recorded_at
    blp = NumberAttribute(null=True)  # before: the latest language, last finished
    ak = UnicodeAttribute(null=True)  # the active index's shard: players only, once played


def history_item(r: HistoryRecord, version: int, write_id: str | None) -> HistoryItem:
    x = r.result
    return HistoryItem(
        f"{HISTORY_PREFIX}{r.id}",
        v=version,
        w=write_id,
        hp=r.player_id,
        hf=history_sort_key(x.finished_at, x.tournament_id),
        ti=x.tournament_id,
        lg=x.language,
        sa=x.started_at,
        fa=x.finished_at,
        pc=x.place,
        rb=x.rating_before,
        ra=x.rating_after,
        rn=x.rounds,
        dw=x.won,
        dd=x.drawn,
        dl=x.lost,
        wi=list(x.wins_in),
        lf=x.left,
    )


def history_record(i: HistoryItem) -> HistoryRecord:
    result = Result(
        tournament_id=i.ti,
        language=i.lg,
        started_at=int(i.sa),
        finished_at=int(i.fa),
        place=int(i.pc),
        rating_before=int(i.rb),
        rating_after=int(i.ra),
        rounds=int(i.rn),
        won=int(i.dw),
        drawn=int(i.dd),
        lost=int(i.dl),
        wins_in=tuple(int(n) for n in i.wi),
        left=bool(i.lf),
    )
    return HistoryRecord(i.hp, result, version=int(i.v))


def stats_item(r: StatsRecord, version: int, write_id: str | None) -> StatsItem:
    s = r.stats
    before = s.before
    indexed = not s.bot and s.last_played is not None
    return StatsItem(
        f"{STATS_PREFIX}{r.player_id}",
        v=version,
        w=write_id,
        nn=s.nickname,
        rt=s.rating,
        bt=s.bot,
        n=s.played,
        wn=s.wins,
        po=s.podiums,
        pt=s.place_total,
        sk=s.streak,
        bs=s.best_streak,
        dw=s.duels_won,
        dd=s.duels_drawn,
        dl=s.duels_lost,
        gs=list(s.guesses),
        cp=b"".join(_POINT.pack(at, rating) for at, rating in s.points),
        ls=dict(s.languages),
        lp=s.last_played,
        ra=s.recorded_at,
        ll=s.latest_language,
        br=None if before is None else before.rating,
        bra=None if before is None else before.recorded_at,
        blp=None if before is None else before.language_played,
        ak=active_shard(r.player_id) if indexed else None,
    )


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def stats_record(i: StatsItem) -> StatsRecord:
    raw: dict[str, Any] = i.ls.as_dict() if i.ls is not None else {}  # type: ignore[no-untyped-call]
    stats = Stats(
        nickname=i.nn,
        rating=int(i.rt),
        bot=bool(i.bt),
        played=int(i.n),
        wins=int(i.wn),
        podiums=int(i.po),
        place_total=int(i.pt),
        streak=int(i.sk),
        best_streak=int(i.bs),
        duels_won=int(i.dw),
        duels_drawn=int(i.dd),
        duels_lost=int(i.dl),
        guesses=tuple(int(n) for n in i.gs),
        points=tuple(_POINT.iter_unpack(i.cp or b"")),
        languages={k: int(v) for k, v in raw.items()},
        last_played=_int(i.lp),
        recorded_at=_int(i.ra),
        latest_language=i.ll,
        before=None if i.br is None else Before(int(i.br), _int(i.bra), _int(i.blp)),
    )
    return StatsRecord(i.pk[len(STATS_PREFIX) :], stats, version=int(i.v))


def active_entry(item: dict[str, Any]) -> Entry:
    """A player as the `active` index projects their statistics (DynamoDB's wire format)."""
    languages = {k: int(v["N"]) for k, v in item.get("ls", {}).get("M", {}).items()}
    return Entry(
        player_id=item["pk"]["S"][len(STATS_PREFIX) :],
        nickname=item["nn"]["S"],
        rating=int(item["rt"]["N"]),
        last_played=int(item["lp"]["N"]),
        languages=languages,
    )


# ---------------------------------------------------------------------------- snapshots


def board_key(name: str, copy: int) -> str:
    return f"{BOARD_PREFIX}{name}#{copy}"


def part_key(part: int) -> str:
    return f"{PART_PREFIX}{part}"


def _board_data(board: Board) -> dict[str, Any]:
    return {
        "as_of": board.as_of,
        "top": [[x.player_id, x.nickname, x.rating, x.played_at] for x in board.top],
        "hist": [list(pair) for pair in board.histogram],
        "parts": list(board.parts_as_of),
    }


def _board(name: str, data: dict[str, Any]) -> Board:
    return Board(
        name=name,
        as_of=int(data["as_of"]),
        top=tuple(Listed(pid, nick, int(r), int(at)) for pid, nick, r, at in data["top"]),
        histogram=tuple((int(r), int(n)) for r, n in data["hist"]),
        parts_as_of=tuple(int(at) for at in data["parts"]),
    )


def _pack(data: Any) -> bytes:
    return zlib.compress(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode(), 9)


def board_attributes(board: Board, copy: int) -> dict[str, Any]:
    """`at`: when its newest part was read, which orders the snapshots."""
    return {
        "pk": {"S": board_key(board.name, copy)},
        "at": {"N": str(board.renewed_at)},
        "d": {"B": _pack(_board_data(board))},
    }


def board_from(item: dict[str, Any]) -> Board:
    name = item["pk"]["S"][len(BOARD_PREFIX) :].rsplit("#", 1)[0]
    return _board(name, json.loads(zlib.decompress(item["d"]["B"])))


def part_attributes(part: int, boards: Mapping[str, Board]) -> dict[str, Any]:
    """One part's boards, built at one time: one item (a few tens of KB at a million players)."""
    at = max((b.renewed_at for b in boards.values()), default=0)
    return {
        "pk": {"S": part_key(part)},
        "at": {"N": str(at)},
        "d": {"B": _pack({name: _board_data(b) for name, b in boards.items()})},
    }


def part_from(item: dict[str, Any]) -> tuple[int, dict[str, Board]]:
    part = int(item["pk"]["S"][len(PART_PREFIX) :])
    data = json.loads(zlib.decompress(item["d"]["B"]))
    return part, {name: _board(name, d) for name, d in data.items()}
