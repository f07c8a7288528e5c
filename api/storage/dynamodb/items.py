"""The table's items as PynamoDB models, and the mapping between records and items.

Attribute names are short on purpose: the 400 KB item limit and the billed item size count them.
Python sees each by its long name (`attr_name=` is the stored one). The models are not bound to
a table (no Meta): the repository sends their serialized form through its own
`TableConnection`, so one process can talk to several tables (tests do).

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

from api.storage import keys
from api.storage.dynamodb.history_items import history_item, stats_item
from api.storage.dynamodb.item_base import Item
from api.storage.dynamodb.schema import lobby_expiry
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
    token_hash = UnicodeAttribute(attr_name="th")
    nickname = UnicodeAttribute(attr_name="nn")
    rating = NumberAttribute(attr_name="rt")
    created_at = NumberAttribute(attr_name="ca")
    played = NumberAttribute(attr_name="pl")
    lobby_id = UnicodeAttribute(null=True, attr_name="lb")
    queued_at = NumberAttribute(null=True, attr_name="qa")
    tournament_id = UnicodeAttribute(null=True, attr_name="ti")
    last_tournament_id = UnicodeAttribute(null=True, attr_name="lt")
    group_id = UnicodeAttribute(null=True, attr_name="gi")
    bot = BooleanAttribute(attr_name="bt")
    # The last contact outside a tournament (D9), written by touch_player.
    last_contact = NumberAttribute(null=True, attr_name="lc")
    house = BooleanAttribute(null=True, attr_name="hb")  # D18: a house bot (absent otherwise)
    # An idle house bot's entry in `fill` (D18: reused before a new one is made).
    fill_key = UnicodeAttribute(null=True, attr_name="ok")
    fill_sort = UnicodeAttribute(null=True, attr_name="of")


class SeatMap(MapAttribute[str, Any]):
    player = UnicodeAttribute(attr_name="p")
    rating = NumberAttribute(attr_name="r")
    # The last contact folded in at the last write (D16).
    seen = NumberAttribute(null=True, attr_name="s")
    bot = BooleanAttribute(null=True, attr_name="b")  # D18: a bot's seat (absent for a person)


class LobbyItem(Item):
    language = UnicodeAttribute(attr_name="lg")
    created_at = NumberAttribute(attr_name="ca")
    seats = ListAttribute(of=SeatMap, attr_name="se")
    group_id = UnicodeAttribute(null=True, attr_name="gi")
    group_rating = NumberAttribute(null=True, attr_name="gr")
    tournament_id = UnicodeAttribute(null=True, attr_name="ti")
    moved_to = UnicodeAttribute(null=True, attr_name="mt")  # merged into that lobby (D15)
    # Contact stamps, set by touch_lobby() only.
    contacts = MapAttribute[str, int](attr_name="c")  # type: ignore[no-untyped-call]
    fill_key = UnicodeAttribute(null=True, attr_name="ok")  # fill's partition, while open
    fill_sort = UnicodeAttribute(null=True, attr_name="of")  # fill's sort key, while open
    due_key = UnicodeAttribute(null=True, attr_name="dk")  # due's shard, while open
    due = NumberAttribute(null=True, attr_name="dd")
    expires = NumberAttribute(null=True, attr_name="x")  # TTL (epoch s), once started or merged
    seated_at = NumberAttribute(null=True, attr_name="sa")  # D18: its last seat taken


class TournamentItem(Item):
    state = BinaryAttribute(legacy_encoding=False, attr_name="s")  # see pack_tournament
    # Last-contact stamps, written by touch() only.
    contacts = MapAttribute[str, int](attr_name="c")  # type: ignore[no-untyped-call]
    due_key = UnicodeAttribute(null=True, attr_name="dk")  # due's shard, while live
    due = NumberAttribute(null=True, attr_name="dd")
    # D19: the rating changes applied that differ from the state's own (absent when none).
    rating_changes = MapAttribute[str, int](null=True, attr_name="rc")  # type: ignore[no-untyped-call]


class GroupItem(Item):
    language = UnicodeAttribute(attr_name="lg")
    members = ListAttribute(of=UnicodeAttribute, attr_name="mb")
    invite_code = UnicodeAttribute(attr_name="ic")
    created_at = NumberAttribute(attr_name="ca")
    lobby_id = UnicodeAttribute(null=True, attr_name="li")


def pack_tournament(record: TournamentRecord) -> bytes:
    """zlib(JSON(core.serialization.to_dict)): a finished tournament fits one read unit."""
    text = json.dumps(to_dict(record.tournament), separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(text.encode(), 9)


def _stamps(contacts: MapAttribute[str, int] | None) -> dict[str, int]:
    raw: dict[str, Any] = contacts.as_dict() if contacts is not None else {}  # type: ignore[no-untyped-call]
    return {k: int(v) for k, v in raw.items()}


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _player_item(r: PlayerRecord, version: int, write_id: str | None) -> PlayerItem:
    return PlayerItem(
        keys.record_key(r),
        version=version,
        write_id=write_id,
        token_hash=r.token_hash,
        nickname=r.nickname,
        rating=r.rating,
        created_at=r.created_at,
        played=r.played,
        lobby_id=r.lobby_id,
        queued_at=r.queued_at,
        tournament_id=r.tournament_id,
        last_tournament_id=r.last_tournament_id,
        group_id=r.group_id,
        bot=r.bot,
        last_contact=r.last_contact,
        house=True if r.house else None,
        fill_key=keys.idle_key(keys.rating_band(r.rating)) if r.idle_house_bot else None,
        fill_sort=keys.idle_sort_key(r.rating) if r.idle_house_bot else None,
    )


def player_record(i: PlayerItem) -> PlayerRecord:
    return PlayerRecord(
        id=keys.without(keys.PLAYER, i.key),
        token_hash=i.token_hash,
        nickname=i.nickname,
        rating=int(i.rating),
        created_at=int(i.created_at),
        played=int(i.played),
        lobby_id=i.lobby_id,
        queued_at=_int(i.queued_at),
        tournament_id=i.tournament_id,
        last_tournament_id=i.last_tournament_id,
        group_id=i.group_id,
        bot=bool(i.bot),
        version=int(i.version),
        last_contact=int(i.last_contact) if i.last_contact is not None else int(i.created_at),
        house=bool(i.house),
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
    seats = [
        SeatMap(player=s.player, rating=s.rating, seen=s.seen, bot=True if s.bot else None)  # type: ignore[no-untyped-call]
        for s in lobby.seats
    ]
    return LobbyItem(
        keys.record_key(r),
        version=version,
        write_id=write_id,
        language=lobby.language,
        created_at=lobby.created_at,
        seats=seats,
        group_id=lobby.group_id,
        group_rating=lobby.group_rating,
        tournament_id=r.tournament_id,
        moved_to=r.moved_to,
        contacts={},
        fill_key=layout.lobby_fill_key(lobby) if listed else None,
        fill_sort=keys.open_sort_key(lobby.open_seats, lobby.created_at) if listed else None,
        due_key=layout.lobby_due_key(lobby.id) if due is not None else None,
        due=due,
        expires=lobby_expiry(lobby.created_at) if closed else None,
        seated_at=r.seated_at,
    )


def lobby_record(i: LobbyItem) -> LobbyRecord:
    created_at = int(i.created_at)
    lobby = Lobby(
        id=keys.without(keys.LOBBY, i.key),
        language=i.language,
        created_at=created_at,
        seats=tuple(
            LobbySeat(
                s.player,
                int(s.rating),
                created_at if s.seen is None else int(s.seen),
                bool(s.bot),
            )
            for s in i.seats
        ),
        group_id=i.group_id,
        group_rating=i.group_rating,
    )
    lobby = heard_from(lobby, _stamps(i.contacts))
    return LobbyRecord(
        lobby, i.tournament_id, int(i.version), _int(i.due), i.moved_to, _int(i.seated_at)
    )


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
        keys.record_key(r),
        version=version,
        write_id=write_id,
        state=state,
        contacts=contacts,
        due_key=layout.due_key(r.id) if live else None,
        due=r.due,
        rating_changes=dict(r.rating_changes) or None,
    )


def tournament_record(i: TournamentItem) -> TournamentRecord:
    tournament = from_dict(json.loads(zlib.decompress(i.state)))
    return TournamentRecord(
        tournament,
        version=int(i.version),
        contacts=_stamps(i.contacts),
        due=_int(i.due),
        rating_changes=_stamps(i.rating_changes),
    )


def _group_item(r: GroupRecord, version: int, write_id: str | None) -> GroupItem:
    g = r.group
    return GroupItem(
        keys.record_key(r),
        version=version,
        write_id=write_id,
        language=g.language,
        members=list(g.members),
        invite_code=g.invite_code,
        created_at=g.created_at,
        lobby_id=r.lobby_id,
    )


def group_record(i: GroupItem) -> GroupRecord:
    group = Group(
        keys.without(keys.GROUP, i.key),
        i.language,
        tuple(str(m) for m in i.members),
        i.invite_code,
        int(i.created_at),
    )
    return GroupRecord(group, lobby_id=i.lobby_id, version=int(i.version))


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
