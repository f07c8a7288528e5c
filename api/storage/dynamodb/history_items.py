"""Players' history and statistics as items, and leaderboard snapshots.

- `H#<player>#<tournament>`: a history line (core.results.Result), written once (a new item),
  in the transaction that fixes the place. Indexed by `history` (player, finish time).
- `C#<player>`: statistics (core.stats.Stats), versioned like every record, with the player's
  fair-play record (D19, core.fairplay.record.to_item as compressed JSON in `fp`, 150 to 300
  bytes; absent until their first place fixed since, and for bots). While the player is no bot,
  has finished a tournament and is not held by fair play (core.leaderboard.indexed), indexed by
  `active` (shard, last finish), which projects the nickname, rating and languages the
  leaderboards need. While their fair-play status is not ok, also in `history` under
  `F#review` (keys.REVIEW), by when the status was set: what operators list.
- `B#<board>#<copy>`: a leaderboard snapshot (core.leaderboard.Board) as compressed JSON,
  written in COPIES copies that readers pick at random (so no copy is a hot key), each replaced
  only by a newer snapshot. `B#part#<n>`: the boards of one part of the players (merged into
  the snapshots). `B#refresh`: when the last refresh was claimed.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterable, Mapping
from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
)
from pynamodb.models import Model

from api.storage import keys
from api.storage.dynamodb.item_base import Item
from api.storage.records import HistoryRecord, StatsRecord
from core.fairplay.record import OK, FairPlay, from_item
from core.fairplay.record import to_item as fairplay_item
from core.leaderboard import Board, Entry, Listed, indexed
from core.results import Result
from core.stats import Before, Stats

COPIES = 4
_POINT = struct.Struct(">qi")  # a rating chart's point: time (ms), rating


class HistoryItem(Item):
    player_id = UnicodeAttribute(attr_name="hp")  # the history index's partition
    # finished_at (13 digits) # tournament: the history index's sort key
    position = UnicodeAttribute(attr_name="hf")
    tournament_id = UnicodeAttribute(attr_name="ti")
    language = UnicodeAttribute(attr_name="lg")
    started_at = NumberAttribute(attr_name="sa")
    finished_at = NumberAttribute(attr_name="fa")
    place = NumberAttribute(attr_name="pc")
    rating_before = NumberAttribute(attr_name="rb")
    rating_after = NumberAttribute(attr_name="ra")
    rounds = NumberAttribute(attr_name="rn")
    won = NumberAttribute(attr_name="dw")  # duels won
    drawn = NumberAttribute(attr_name="dd")
    lost = NumberAttribute(attr_name="dl")
    wins_in = ListAttribute(of=NumberAttribute, attr_name="wi")
    left = BooleanAttribute(attr_name="lf")


class StatsItem(Item):
    nickname = UnicodeAttribute(attr_name="nn")
    rating = NumberAttribute(attr_name="rt")
    bot = BooleanAttribute(attr_name="bt")
    played = NumberAttribute(attr_name="n")
    wins = NumberAttribute(attr_name="wn")
    podiums = NumberAttribute(attr_name="po")
    place_total = NumberAttribute(attr_name="pt")
    streak = NumberAttribute(attr_name="sk")
    best_streak = NumberAttribute(attr_name="bs")
    duels_won = NumberAttribute(attr_name="dw")
    duels_drawn = NumberAttribute(attr_name="dd")
    duels_lost = NumberAttribute(attr_name="dl")
    guesses = ListAttribute(of=NumberAttribute, attr_name="gs")
    points = BinaryAttribute(legacy_encoding=False, attr_name="cp")  # the rating chart, packed
    # language → last finished
    languages = MapAttribute[str, Any](attr_name="ls")  # type: ignore[no-untyped-call]
    last_played = NumberAttribute(null=True, attr_name="lp")  # the active index's sort key
    recorded_at = NumberAttribute(null=True, attr_name="ra")
    latest_language = UnicodeAttribute(null=True, attr_name="ll")
    before_rating = NumberAttribute(null=True, attr_name="br")
    before_recorded_at = NumberAttribute(null=True, attr_name="bra")
    # before: the latest language, last finished
    before_language_played = NumberAttribute(null=True, attr_name="blp")
    # The active index's partition: players only (no bots), once they finished a tournament,
    # unless fair play holds them (D19).
    active_key = UnicodeAttribute(null=True, attr_name="ak")
    # D19: the record, zlib(JSON): compressed, a busy player's item stays nearer one write unit
    fairplay = BinaryAttribute(null=True, legacy_encoding=False, attr_name="fp")
    # D19: in the history index under keys.REVIEW while the fair-play status is not ok.
    review_key = UnicodeAttribute(null=True, attr_name="hp")
    review_position = UnicodeAttribute(null=True, attr_name="hf")


class SnapshotItem(Model):
    """A leaderboard snapshot, a part's boards, or the refresh claim (which has no data)."""

    key = UnicodeAttribute(hash_key=True, attr_name="pk")
    # When its newest part was read (which orders the snapshots); the claim: when it was made.
    renewed_at = NumberAttribute(attr_name="at")
    data = BinaryAttribute(null=True, legacy_encoding=False, attr_name="d")  # compressed JSON
    write_id = UnicodeAttribute(null=True, attr_name="w")  # the refresh claim's


def history_item(r: HistoryRecord, version: int, write_id: str | None) -> HistoryItem:
    x = r.result
    return HistoryItem(
        keys.record_key(r),
        version=version,
        write_id=write_id,
        player_id=r.player_id,
        position=keys.history_sort_key(x.finished_at, x.tournament_id),
        tournament_id=x.tournament_id,
        language=x.language,
        started_at=x.started_at,
        finished_at=x.finished_at,
        place=x.place,
        rating_before=x.rating_before,
        rating_after=x.rating_after,
        rounds=x.rounds,
        won=x.won,
        drawn=x.drawn,
        lost=x.lost,
        wins_in=list(x.wins_in),
        left=x.left,
    )


def _ints(values: Iterable[Any]) -> tuple[int, ...]:
    """A list of numbers as stored (PynamoDB types its elements as the attribute class)."""
    return tuple(int(n) for n in values)


def history_record(i: HistoryItem) -> HistoryRecord:
    result = Result(
        tournament_id=i.tournament_id,
        language=i.language,
        started_at=int(i.started_at),
        finished_at=int(i.finished_at),
        place=int(i.place),
        rating_before=int(i.rating_before),
        rating_after=int(i.rating_after),
        rounds=int(i.rounds),
        won=int(i.won),
        drawn=int(i.drawn),
        lost=int(i.lost),
        wins_in=_ints(i.wins_in),
        left=bool(i.left),
    )
    return HistoryRecord(i.player_id, result, version=int(i.version))


def _fairplay_bytes(record: FairPlay | None) -> bytes | None:
    if record is None:
        return None
    text = json.dumps(fairplay_item(record), separators=(",", ":"), sort_keys=True)
    return zlib.compress(text.encode(), 9)


def stats_item(r: StatsRecord, version: int, write_id: str | None) -> StatsItem:
    s = r.stats
    before = s.before
    fp = r.fairplay
    review = None
    if fp is not None and fp.status != OK:
        review = keys.review_sort_key(fp.status_at, r.player_id)
    return StatsItem(
        keys.record_key(r),
        version=version,
        write_id=write_id,
        nickname=s.nickname,
        rating=s.rating,
        bot=s.bot,
        played=s.played,
        wins=s.wins,
        podiums=s.podiums,
        place_total=s.place_total,
        streak=s.streak,
        best_streak=s.best_streak,
        duels_won=s.duels_won,
        duels_drawn=s.duels_drawn,
        duels_lost=s.duels_lost,
        guesses=list(s.guesses),
        points=b"".join(_POINT.pack(at, rating) for at, rating in s.points),
        languages=dict(s.languages),
        last_played=s.last_played,
        recorded_at=s.recorded_at,
        latest_language=s.latest_language,
        before_rating=None if before is None else before.rating,
        before_recorded_at=None if before is None else before.recorded_at,
        before_language_played=None if before is None else before.language_played,
        active_key=keys.active_shard(r.player_id) if indexed(s, fp) else None,
        fairplay=_fairplay_bytes(fp),
        review_key=None if review is None else keys.REVIEW,
        review_position=review,
    )


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _languages(i: StatsItem) -> dict[str, int]:
    raw: dict[str, Any] = i.languages.as_dict() if i.languages is not None else {}  # type: ignore[no-untyped-call]
    return {k: int(v) for k, v in raw.items()}


def stats_record(i: StatsItem) -> StatsRecord:
    before = None
    if i.before_rating is not None:
        played = _int(i.before_language_played)
        before = Before(int(i.before_rating), _int(i.before_recorded_at), played)
    stats = Stats(
        nickname=i.nickname,
        rating=int(i.rating),
        bot=bool(i.bot),
        played=int(i.played),
        wins=int(i.wins),
        podiums=int(i.podiums),
        place_total=int(i.place_total),
        streak=int(i.streak),
        best_streak=int(i.best_streak),
        duels_won=int(i.duels_won),
        duels_drawn=int(i.duels_drawn),
        duels_lost=int(i.duels_lost),
        guesses=_ints(i.guesses),
        points=tuple(_POINT.iter_unpack(i.points or b"")),
        languages=_languages(i),
        last_played=_int(i.last_played),
        recorded_at=_int(i.recorded_at),
        latest_language=i.latest_language,
        before=before,
    )
    fairplay = None if i.fairplay is None else from_item(json.loads(zlib.decompress(i.fairplay)))
    player_id = keys.without(keys.STATS, i.key)
    return StatsRecord(player_id, stats, version=int(i.version), fairplay=fairplay)


def active_entry(item: dict[str, Any]) -> Entry:
    """A player as the `active` index projects their statistics (DynamoDB's wire format: the
    keys, the nickname, the rating and the languages)."""
    i = StatsItem.from_raw_data(item)
    return Entry(
        player_id=keys.without(keys.STATS, i.key),
        nickname=i.nickname,
        rating=int(i.rating),
        last_played=int(i.last_played),
        languages=_languages(i),
    )


# ---------------------------------------------------------------------------- snapshots


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


def _unpack(item: SnapshotItem) -> Any:
    return json.loads(zlib.decompress(item.data or b""))


def board_attributes(board: Board, copy: int) -> dict[str, Any]:
    """One copy of a snapshot, in DynamoDB's wire format."""
    key = keys.board_key(board.name, copy)
    item = SnapshotItem(key, renewed_at=board.renewed_at, data=_pack(_board_data(board)))
    attrs: dict[str, Any] = item.serialize()
    return attrs


def board_from(item: dict[str, Any]) -> Board:
    snapshot = SnapshotItem.from_raw_data(item)
    return _board(keys.board_name(snapshot.key), _unpack(snapshot))


def part_attributes(part: int, boards: Mapping[str, Board]) -> dict[str, Any]:
    """One part's boards, built at one time: one item (a few tens of KB at a million players)."""
    at = max((b.renewed_at for b in boards.values()), default=0)
    data = _pack({name: _board_data(b) for name, b in boards.items()})
    attrs: dict[str, Any] = SnapshotItem(keys.part_key(part), renewed_at=at, data=data).serialize()
    return attrs


def part_from(item: dict[str, Any]) -> tuple[int, dict[str, Board]]:
    snapshot = SnapshotItem.from_raw_data(item)
    part = int(keys.without(keys.PART, snapshot.key))
    return part, {name: _board(name, d) for name, d in _unpack(snapshot).items()}


def refresh_claim(now: int, write_id: str) -> dict[str, Any]:
    """The refresh claim as it is written (for its size: it is written by an UpdateItem)."""
    attrs: dict[str, Any] = SnapshotItem(
        keys.REFRESH, renewed_at=now, write_id=write_id
    ).serialize()
    return attrs
