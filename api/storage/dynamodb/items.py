"""The table's items as PynamoDB models, and the mapping between records and items.

Attribute names are short on purpose: the 400 KB item limit and the billed item size count them.
The models are not bound to a table (no Meta): the repository sends their serialized form
through its own `TableConnection`, so one process can talk to several tables (tests do).

Players' history lines and statistics: api/storage/dynamodb/history_items.py.

Every record item carries its version `v` (each write is conditional on it) and the id `w` of
the commit that wrote it last, by which a retried write recognises that it had already landed
(see api/storage/dynamodb/writes.py).
"""

from __future__ import annotations

import json
import zlib
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

from api.storage.dynamodb.history_items import (
    HISTORY_PREFIX,
    STATS_PREFIX,
    history_item,
    stats_item,
)
from api.storage.dynamodb.item_base import Item
from api.storage.dynamodb.table import lobby_expiry, open_sort_key, rating_band
from api.storage.layout import Layout
from api.storage.records import (
    GroupRecord,
    HistoryRecord,
    LobbyRecord,
    PlayerRecord,
    Record,
    StatsRecord,
    TournamentRecord,
)
from core.groups import Group
from core.lobby import Lobby, LobbySeat, heard_from
from core.serialization import from_dict, to_dict


class PlayerItem(Item):
    th = UnicodeAttribute()  # token hash
    nn = UnicodeAttribute()  # nickname
    rt = NumberAttribute()  # rating
    ca = NumberAttribute()  # created_at
    pl = NumberAttribute()  # played
    lb = UnicodeAttribute(null=True)  # lobby_id
    qa = NumberAttribute(null=True)  # queued_at
    ti = UnicodeAttribute(null=True)  # tournament_id
    lt = UnicodeAttribute(null=True)  # last_tournament_id
    gi = UnicodeAttribute(null=True)  # group_id
    bt = BooleanAttribute()  # bot
    lc = NumberAttribute(null=True)  # last contact outside a tournament (D9), by touch_player


class SeatMap(MapAttribute[str, Any]):
    p = UnicodeAttribute()
    r = NumberAttribute()
    s = NumberAttribute(null=True)  # seen: the last contact folded in at the last write (D16)


class LobbyItem(Item):
    lg = UnicodeAttribute()  # language
    ca = NumberAttribute()  # created_at
    se = ListAttribute(of=SeatMap)  # seats
    gi = UnicodeAttribute(null=True)  # group_id
    gr = NumberAttribute(null=True)  # group_rating
    ti = UnicodeAttribute(null=True)  # tournament_id
    mt = UnicodeAttribute(null=True)  # moved_to: merged into that lobby (D15)
    c = MapAttribute[str, int]()  # type: ignore[no-untyped-call] # contacts, by touch_lobby() only
    ok = UnicodeAttribute(null=True)  # fill index partition, only while open
    of = UnicodeAttribute(null=True)  # fill index sort key, only while open
    dk = UnicodeAttribute(null=True)  # due index shard, only while open
    dd = NumberAttribute(null=True)  # due
    x = NumberAttribute(null=True)  # TTL (epoch seconds), once started or merged


class TournamentItem(Item):
    s = BinaryAttribute(legacy_encoding=False)  # zlib(JSON(core.serialization.to_dict))
    c = MapAttribute[str, int]()  # type: ignore[no-untyped-call] # last-contact stamps, written by touch() only
    dk = UnicodeAttribute(null=True)  # due index shard, only while live
    dd = NumberAttribute(null=True)  # due


class GroupItem(Item):
    lg = UnicodeAttribute()
    mb = ListAttribute(of=UnicodeAttribute)  # members
    ic = UnicodeAttribute()  # invite code
    ca = NumberAttribute()
    li = UnicodeAttribute(null=True)  # lobby_id


class CounterItem(Model):
    """A rate-limit subject `R#<key>`: a number attribute `c<window>` per recent window."""

    pk = UnicodeAttribute(hash_key=True)
    x = NumberAttribute()  # TTL, epoch seconds
    w = UnicodeAttribute(null=True)  # write id of the last count


KEY_PREFIX: dict[type, str] = {
    PlayerRecord: "P#",
    LobbyRecord: "L#",
    TournamentRecord: "T#",
    GroupRecord: "G#",
    HistoryRecord: HISTORY_PREFIX,
    StatsRecord: STATS_PREFIX,
}


def record_key(record: Record) -> str:
    return KEY_PREFIX[type(record)] + record.id


def pack_tournament(record: TournamentRecord) -> bytes:
    text = json.dumps(to_dict(record.tournament), separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(text.encode(), 9)


def _player_item(r: PlayerRecord, version: int, write_id: str | None) -> PlayerItem:
    return PlayerItem(
        "P#" + r.id,
        v=version,
        w=write_id,
        th=r.token_hash,
        nn=r.nickname,
        rt=r.rating,
        ca=r.created_at,
        pl=r.played,
        lb=r.lobby_id,
        qa=r.queued_at,
        ti=r.tournament_id,
        lt=r.last_tournament_id,
        gi=r.group_id,
        bt=r.bot,
        lc=r.last_contact,
    )


def player_record(i: PlayerItem) -> PlayerRecord:
    return PlayerRecord(
        id=i.pk[2:],
        token_hash=i.th,
        nickname=i.nn,
        rating=int(i.rt),
        created_at=int(i.ca),
        played=int(i.pl),
        lobby_id=i.lb,
        queued_at=None if i.qa is None else int(i.qa),
        tournament_id=i.ti,
        last_tournament_id=i.lt,
        group_id=i.gi,
        bot=bool(i.bt),
        version=int(i.v),
        last_contact=int(i.lc) if i.lc is not None else int(i.ca),
    )


DEFAULT_LAYOUT = Layout()


def _lobby_item(r: LobbyRecord, version: int, write_id: str | None, layout: Layout) -> LobbyItem:
    """Seats carry their last contact; the contact map starts empty again (touch_lobby() sets
    paths inside it)."""
    lobby = r.lobby
    listed = r.open
    due = r.due if listed else None
    # Started, or every player moved away (a lobby that gave some players to another stays
    # open, and stays).
    closed = not listed and (r.tournament_id is not None or r.moved_to is not None)
    return LobbyItem(
        "L#" + lobby.id,
        v=version,
        w=write_id,
        lg=lobby.language,
        ca=lobby.created_at,
        se=[SeatMap(p=s.player, r=s.rating, s=s.seen) for s in lobby.seats],  # type: ignore[no-untyped-call]
        gi=lobby.group_id,
        gr=lobby.group_rating,
        ti=r.tournament_id,
        mt=r.moved_to,
        c={},
        ok=fill_key(layout, r) if listed else None,
        of=open_sort_key(lobby.open_seats, lobby.created_at) if listed else None,
        dk=layout.lobby_due_key(lobby.id) if due is not None else None,
        dd=due,
        x=lobby_expiry(lobby.created_at) if closed else None,
    )


def fill_key(layout: Layout, r: LobbyRecord) -> str:
    """The `fill` partition of an open lobby: its language, rating band and shard."""
    lobby = r.lobby
    shard = layout.fill_shard(lobby.language, lobby.id)
    return layout.fill_key(lobby.language, rating_band(lobby.rating), shard)


def lobby_record(i: LobbyItem) -> LobbyRecord:
    created_at = int(i.ca)
    lobby = Lobby(
        id=i.pk[2:],
        language=i.lg,
        created_at=created_at,
        seats=tuple(
            LobbySeat(s.p, int(s.r), created_at if s.s is None else int(s.s)) for s in i.se
        ),
        group_id=i.gi,
        group_rating=i.gr,
    )
    stamps: dict[str, Any] = i.c.as_dict() if i.c is not None else {}  # type: ignore[no-untyped-call]
    lobby = heard_from(lobby, {k: int(v) for k, v in stamps.items()})
    due = None if i.dd is None else int(i.dd)
    return LobbyRecord(lobby, i.ti, int(i.v), due, i.mt)


def tournament_item(
    r: TournamentRecord,
    version: int,
    state: bytes,
    contacts: dict[str, int],
    write_id: str | None = None,
    layout: Layout = DEFAULT_LAYOUT,
) -> TournamentItem:
    live = r.due is not None
    return TournamentItem(
        "T#" + r.id,
        v=version,
        w=write_id,
        s=state,
        c=contacts,
        dk=layout.due_key(r.id) if live else None,
        dd=r.due,
    )


def tournament_record(i: TournamentItem) -> TournamentRecord:
    tournament = from_dict(json.loads(zlib.decompress(i.s)))
    stamps: dict[str, Any] = i.c.as_dict() if i.c is not None else {}  # type: ignore[no-untyped-call]
    contacts = {k: int(v) for k, v in stamps.items()}
    due = None if i.dd is None else int(i.dd)
    return TournamentRecord(tournament, version=int(i.v), contacts=contacts, due=due)


def _group_item(r: GroupRecord, version: int, write_id: str | None) -> GroupItem:
    g = r.group
    return GroupItem(
        "G#" + g.id,
        v=version,
        w=write_id,
        lg=g.language,
        mb=list(g.members),
        ic=g.invite_code,
        ca=g.created_at,
        li=r.lobby_id,
    )


def group_record(i: GroupItem) -> GroupRecord:
    group = Group(i.pk[2:], i.lg, tuple(str(m) for m in i.mb), i.ic, int(i.ca))
    return GroupRecord(group, lobby_id=i.li, version=int(i.v))


def to_item(
    record: Record,
    version: int,
    contacts: dict[str, int] | None = None,
    write_id: str | None = None,
    layout: Layout = DEFAULT_LAYOUT,
    state: bytes | None = None,
) -> Item:
    """The item for `record`; a tournament's contact map is `contacts` (None: the record's),
    its packed state `state` (None: packed now)."""
    if isinstance(record, PlayerRecord):
        return _player_item(record, version, write_id)
    if isinstance(record, LobbyRecord):
        return _lobby_item(record, version, write_id, layout)
    if isinstance(record, GroupRecord):
        return _group_item(record, version, write_id)
    if isinstance(record, HistoryRecord):
        return history_item(record, version, write_id)
    if isinstance(record, StatsRecord):
        return stats_item(record, version, write_id)
    stamps = dict(record.contacts) if contacts is None else contacts
    packed = pack_tournament(record) if state is None else state
    return tournament_item(record, version, packed, stamps, write_id, layout)
