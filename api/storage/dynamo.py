"""The repository on one DynamoDB table, modelled with PynamoDB.

Items (partition key `pk`): players `P#<id>`, lobbies `L#<id>`, tournaments `T#<id>`, groups
`G#<id>`, rate-limit counters `R#<key>#<window start>`. Every record carries its version `v`;
each write is conditional on it. Two sparse indexes, so only items that need them are indexed:

- `due`: live tournaments, partition `D#<0..7>` (sharded: one constant key would be a hot
  partition), sort key the next deadline `dd`. The sweep queries each shard for `dd <= now`.
- `open`: lobbies open for matchmaking, partition `O#<language>#<floor(rating / 200)>`, sort key
  `ca` (created_at). Matchmaking queries the two or three bands around a rating.

Attribute names are short on purpose: the 400 KB item limit and the billed item size count them.
The PynamoDB models are not bound to a table (no Meta): the repository sends their serialized form
through its own `TableConnection`, so one process can talk to several tables (tests do).
"""

from __future__ import annotations

import json
import math
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError  # type: ignore[import-untyped]
from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
)
from pynamodb.connection import TableConnection
from pynamodb.connection.base import MetaTable
from pynamodb.exceptions import PynamoDBException, TableDoesNotExist
from pynamodb.expressions.condition import Condition
from pynamodb.expressions.operand import Path
from pynamodb.expressions.update import Action
from pynamodb.models import Model

from api.config import Settings
from api.storage.meter import Meter, item_size, read_units, write_units
from api.storage.records import (
    GroupRecord,
    LobbyRecord,
    PlayerRecord,
    Record,
    TournamentRecord,
)
from api.storage.repository import (
    Conflict,
    Delete,
    Repository,
    StorageError,
    Unavailable,
    Write,
)
from core.groups import Group
from core.lobby import Lobby, LobbySeat
from core.serialization import from_dict, to_dict

# ---------------------------------------------------------------------------- the table

DUE_INDEX = "due"
OPEN_INDEX = "open"
DUE_SHARDS = 8
RATING_BAND = 200
TTL_ATTRIBUTE = "x"
MAX_TRANSACTION_ITEMS = 100
MAX_BATCH_GET = 100


def _key(name: str, kind: str) -> dict[str, str]:
    return {"AttributeName": name, "KeyType": kind}


def table_definition(table_name: str) -> dict[str, Any]:
    """The one definition of the table, as boto3's CreateTable arguments."""
    return {
        "TableName": table_name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "dk", "AttributeType": "S"},
            {"AttributeName": "dd", "AttributeType": "N"},
            {"AttributeName": "ok", "AttributeType": "S"},
            {"AttributeName": "ca", "AttributeType": "N"},
        ],
        "KeySchema": [_key("pk", "HASH")],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": DUE_INDEX,
                "KeySchema": [_key("dk", "HASH"), _key("dd", "RANGE")],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            },
            {
                "IndexName": OPEN_INDEX,
                "KeySchema": [_key("ok", "HASH"), _key("ca", "RANGE")],
                "Projection": {"ProjectionType": "ALL"},
            },
        ],
    }


def ttl_specification() -> dict[str, Any]:
    """UpdateTimeToLive's specification: counters expire by `x` (epoch seconds), cleanup only."""
    return {"AttributeName": TTL_ATTRIBUTE, "Enabled": True}


# ---------------------------------------------------------------------------- the items


class _Item(Model):
    pk = UnicodeAttribute(hash_key=True)
    v = NumberAttribute()


class PlayerItem(_Item):
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


class SeatMap(MapAttribute[str, Any]):
    p = UnicodeAttribute()
    r = NumberAttribute()


class LobbyItem(_Item):
    lg = UnicodeAttribute()  # language
    ca = NumberAttribute()  # created_at; also the open index's sort key
    se = ListAttribute(of=SeatMap)  # seats
    gi = UnicodeAttribute(null=True)  # group_id
    gr = NumberAttribute(null=True)  # group_rating
    ti = UnicodeAttribute(null=True)  # tournament_id
    ok = UnicodeAttribute(null=True)  # open index partition, only while open


class TournamentItem(_Item):
    s = BinaryAttribute(legacy_encoding=False)  # zlib(JSON(core.serialization.to_dict))
    c = MapAttribute[str, int]()  # type: ignore[no-untyped-call] # last-contact stamps, written by touch() only
    dk = UnicodeAttribute(null=True)  # due index shard, only while live
    dd = NumberAttribute(null=True)  # due


class GroupItem(_Item):
    lg = UnicodeAttribute()
    mb = ListAttribute(of=UnicodeAttribute)  # members
    ic = UnicodeAttribute()  # invite code
    ca = NumberAttribute()
    li = UnicodeAttribute(null=True)  # lobby_id


class CounterItem(Model):
    pk = UnicodeAttribute(hash_key=True)
    n = NumberAttribute()
    x = NumberAttribute()  # TTL, epoch seconds


_PREFIX: dict[type, str] = {
    PlayerRecord: "P#",
    LobbyRecord: "L#",
    TournamentRecord: "T#",
    GroupRecord: "G#",
}


def record_key(record: Record) -> str:
    return _PREFIX[type(record)] + record.id


def due_shard(tournament_id: str) -> str:
    return f"D#{zlib.crc32(tournament_id.encode()) % DUE_SHARDS}"


def rating_band(rating: float) -> int:
    return math.floor(rating / RATING_BAND)


def open_key(language: str, band: int) -> str:
    return f"O#{language}#{band}"


# ---------------------------------------------------------------------------- records ⇄ items


def pack_tournament(record: TournamentRecord) -> bytes:
    text = json.dumps(to_dict(record.tournament), separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(text.encode(), 9)


def _player_item(r: PlayerRecord, version: int) -> PlayerItem:
    return PlayerItem(
        "P#" + r.id,
        v=version,
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
    )


def _player_record(i: PlayerItem) -> PlayerRecord:
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
    )


def _lobby_item(r: LobbyRecord, version: int) -> LobbyItem:
    lobby = r.lobby
    return LobbyItem(
        "L#" + lobby.id,
        v=version,
        lg=lobby.language,
        ca=lobby.created_at,
        se=[SeatMap(p=s.player, r=s.rating) for s in lobby.seats],  # type: ignore[no-untyped-call]
        gi=lobby.group_id,
        gr=lobby.group_rating,
        ti=r.tournament_id,
        ok=open_key(lobby.language, rating_band(lobby.rating)) if r.open else None,
    )


def _lobby_record(i: LobbyItem) -> LobbyRecord:
    lobby = Lobby(
        id=i.pk[2:],
        language=i.lg,
        created_at=int(i.ca),
        seats=tuple(LobbySeat(s.p, int(s.r)) for s in i.se),
        group_id=i.gi,
        group_rating=i.gr,
    )
    return LobbyRecord(lobby, tournament_id=i.ti, version=int(i.v))


def _tournament_item(
    r: TournamentRecord, version: int, state: bytes, contacts: dict[str, int]
) -> TournamentItem:
    live = r.due is not None
    return TournamentItem(
        "T#" + r.id,
        v=version,
        s=state,
        c=contacts,
        dk=due_shard(r.id) if live else None,
        dd=r.due,
    )


def _tournament_record(i: TournamentItem) -> TournamentRecord:
    tournament = from_dict(json.loads(zlib.decompress(i.s)))
    stamps: dict[str, Any] = i.c.as_dict() if i.c is not None else {}  # type: ignore[no-untyped-call]
    contacts = {k: int(v) for k, v in stamps.items()}
    due = None if i.dd is None else int(i.dd)
    return TournamentRecord(tournament, version=int(i.v), contacts=contacts, due=due)


def _group_item(r: GroupRecord, version: int) -> GroupItem:
    g = r.group
    return GroupItem(
        "G#" + g.id,
        v=version,
        lg=g.language,
        mb=list(g.members),
        ic=g.invite_code,
        ca=g.created_at,
        li=r.lobby_id,
    )


def _group_record(i: GroupItem) -> GroupRecord:
    group = Group(i.pk[2:], i.lg, tuple(str(m) for m in i.mb), i.ic, int(i.ca))
    return GroupRecord(group, lobby_id=i.li, version=int(i.v))


def to_item(record: Record, version: int, contacts: dict[str, int] | None = None) -> _Item:
    """The item for `record`; a tournament's contact map is `contacts` (None: the record's)."""
    if isinstance(record, PlayerRecord):
        return _player_item(record, version)
    if isinstance(record, LobbyRecord):
        return _lobby_item(record, version)
    if isinstance(record, GroupRecord):
        return _group_item(record, version)
    stamps = dict(record.contacts) if contacts is None else contacts
    return _tournament_item(record, version, pack_tournament(record), stamps)


# ---------------------------------------------------------------------------- errors

_THROTTLED = {
    "ProvisionedThroughputExceededException",
    "ThrottlingException",
    "RequestLimitExceeded",
    "LimitExceededException",
    "InternalServerError",
    "InternalFailure",
    "ServiceUnavailable",
    "TransactionInProgressException",
}
_CONFLICT_REASONS = {"ConditionalCheckFailed", "TransactionConflict"}
_BUSY_REASONS = {"ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"}


def _code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def _reasons(exc: ClientError) -> set[str]:
    reasons = getattr(exc, "cancellation_reasons", None)  # pynamodb's VerboseClientError
    if reasons is not None:
        return {r.code for r in reasons if r is not None}
    return {r.get("Code", "") for r in exc.response.get("CancellationReasons", [])}


def translate(exc: Exception) -> StorageError:
    """A botocore/PynamoDB error as the repository's: Conflict, Unavailable or StorageError."""
    cause = exc.cause if isinstance(exc, PynamoDBException) and exc.cause else exc
    if isinstance(cause, BotoCoreError):  # could not connect, timed out, ...
        return Unavailable(f"DynamoDB unreachable: {cause}", retry_after=2)
    if not isinstance(cause, ClientError):
        return StorageError(str(exc))
    code = _code(cause)
    if code == "ConditionalCheckFailedException":
        return Conflict("a record changed since it was read")
    if code == "TransactionCanceledException":
        reasons = _reasons(cause)
        if reasons & _CONFLICT_REASONS:
            return Conflict(f"transaction cancelled: {sorted(reasons)}")
        if reasons & _BUSY_REASONS:
            return Unavailable(f"DynamoDB is throttling: {sorted(reasons)}")
        return StorageError(f"transaction cancelled: {sorted(reasons)}")
    if code in _THROTTLED:
        return Unavailable(f"DynamoDB is busy: {code}")
    if code == "ResourceNotFoundException":
        return Unavailable(f"DynamoDB table missing (run `db create`?): {cause}", retry_after=30)
    return StorageError(f"DynamoDB error {code}: {cause}")


@contextmanager
def _errors() -> Iterator[None]:
    try:
        yield
    except (PynamoDBException, BotoCoreError, ClientError) as exc:
        raise translate(exc) from exc


# ---------------------------------------------------------------------------- writes


@dataclass(frozen=True, slots=True)
class _Op:
    """One write, ready for a single call or a transaction."""

    kind: str  # "Put", "Update" or "Delete"
    kwargs: dict[str, Any]
    pk: str
    size: int  # of the item as stored afterwards (before, for a delete)
    index_units: float  # extra write units for sparse-index entries


def _write_units(ops: list[_Op], transactional: bool, *, index: bool) -> float:
    units = sum(write_units(op.size, transactional=transactional) for op in ops)
    return units + (sum(op.index_units for op in ops) if index else 0.0)


def _index_units(pk: str, attrs: dict[str, Any], new: bool) -> float:
    """Write units for the index entries a base write causes (an estimate).

    An item carrying an index key writes its projection there; an existing tournament or lobby
    written without one may be leaving the index, which is a delete there (1 unit).
    """
    if "dk" in attrs:
        keys_only = {name: attrs[name] for name in ("pk", "dk", "dd")}
        return write_units(item_size(keys_only))
    if "ok" in attrs:
        return write_units(item_size(attrs))
    if not new and pk[:2] in ("T#", "L#"):
        return 1.0
    return 0.0


class _SizeCache:
    """Last known item sizes of tournaments, to meter updates that do not read the item."""

    def __init__(self, capacity: int = 4096) -> None:
        self._lock = threading.Lock()
        self._sizes: OrderedDict[str, int] = OrderedDict()
        self._capacity = capacity

    def get(self, pk: str, default: int) -> int:
        with self._lock:
            return self._sizes.get(pk, default)

    def put(self, pk: str, size: int) -> None:
        with self._lock:
            self._sizes[pk] = size
            self._sizes.move_to_end(pk)
            if len(self._sizes) > self._capacity:
                self._sizes.popitem(last=False)

    def drop(self, pk: str) -> None:
        with self._lock:
            self._sizes.pop(pk, None)


# ---------------------------------------------------------------------------- the repository


class DynamoRepository(Repository):
    def __init__(
        self,
        settings: Settings,
        meter: Meter | None = None,
        *,
        connect_timeout: float = 1.0,
        read_timeout: float = 3.0,
        max_retry_attempts: int = 2,
    ) -> None:
        """`settings.dynamodb_endpoint` is PynamoDB's `host` (None: AWS itself).

        The timeouts and retries default short: a Lambda behind a 30 s API Gateway limit is
        better off answering 503 with Retry-After than waiting out botocore's 60 s defaults.
        """
        self.table_name = settings.table_name
        self.meter = meter if meter is not None else Meter()
        self._conn = TableConnection(
            settings.table_name,
            region=settings.region,
            host=settings.dynamodb_endpoint,
            connect_timeout_seconds=connect_timeout,
            read_timeout_seconds=read_timeout,
            max_retry_attempts=max_retry_attempts,
            meta_table=MetaTable(table_definition(settings.table_name)),
        )
        self._sizes = _SizeCache()

    # ------------------------------------------------------------------ reads

    def _get(self, operation: str, pk: str, consistent: bool = True) -> dict[str, Any] | None:
        with _errors():
            data = self._conn.get_item(pk, consistent_read=consistent)
        item: dict[str, Any] | None = data.get("Item")
        size = 0 if item is None else item_size(item)
        self.meter.record(operation, read=read_units(size, consistent=consistent))
        return item

    def get_player(self, player_id: str, *, consistent: bool = True) -> PlayerRecord | None:
        item = self._get("get_player", "P#" + player_id, consistent)
        return None if item is None else _player_record(PlayerItem.from_raw_data(item))

    def get_players(self, player_ids: Sequence[str]) -> list[PlayerRecord]:
        keys = list(dict.fromkeys("P#" + pid for pid in player_ids))
        found: dict[str, PlayerRecord] = {}
        for start in range(0, len(keys), MAX_BATCH_GET):
            for item in self._batch_get(keys[start : start + MAX_BATCH_GET]):
                record = _player_record(PlayerItem.from_raw_data(item))
                found[record.id] = record
        return [found[pid] for pid in player_ids if pid in found]

    def _batch_get(self, pks: list[str]) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        pending: list[Any] = [{"pk": pk} for pk in pks]
        for attempt in range(8):
            if not pending:
                break
            if attempt:
                time.sleep(min(0.05 * 2**attempt, 1.0))
            with _errors():
                data = self._conn.batch_get_item(pending, consistent_read=True)
            got = data.get("Responses", {}).get(self.table_name, [])
            asked = len(pending)
            pending = data.get("UnprocessedKeys", {}).get(self.table_name, {}).get("Keys", [])
            misses = asked - len(got) - len(pending)  # a key that is not there costs the minimum
            units = sum(read_units(item_size(i)) for i in got) + misses * read_units(0)
            self.meter.record("get_players", read=units)
            items += got
        if pending:
            raise Unavailable("DynamoDB left keys unprocessed (throttling)")
        return items

    def get_lobby(self, lobby_id: str) -> LobbyRecord | None:
        item = self._get("get_lobby", "L#" + lobby_id)
        return None if item is None else _lobby_record(LobbyItem.from_raw_data(item))

    def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        pk = "T#" + tournament_id
        item = self._get("get_tournament", pk)
        if item is None:
            return None
        self._sizes.put(pk, item_size(item))
        return _tournament_record(TournamentItem.from_raw_data(item))

    def get_group(self, group_id: str) -> GroupRecord | None:
        item = self._get("get_group", "G#" + group_id)
        return None if item is None else _group_record(GroupItem.from_raw_data(item))

    def _query(
        self,
        operation: str,
        index: str,
        partition: str,
        condition: Condition | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """All items of one index partition (up to `limit`), following pages."""
        items: list[dict[str, Any]] = []
        start: Any = None
        while True:
            with _errors():
                data = self._conn.query(
                    partition,
                    range_key_condition=condition,
                    index_name=index,
                    exclusive_start_key=start,
                    limit=None if limit is None else limit - len(items),
                )
            page: list[dict[str, Any]] = data.get("Items", [])
            items += page
            size = sum(item_size(i) for i in page)
            self.meter.record(operation, read=read_units(size, consistent=False))
            start = data.get("LastEvaluatedKey")
            if not start or (limit is not None and len(items) >= limit):
                return items

    def open_lobbies(self, language: str, rating: int, window: int) -> list[LobbyRecord]:
        lobbies: list[LobbyRecord] = []
        for band in range(rating_band(rating - window), rating_band(rating + window) + 1):
            for item in self._query("open_lobbies", OPEN_INDEX, open_key(language, band)):
                lobbies.append(_lobby_record(LobbyItem.from_raw_data(item)))
        return [
            lb
            for lb in lobbies
            if lb.open and lb.lobby.language == language and abs(lb.lobby.rating - rating) <= window
        ]

    def due_tournaments(self, now: int, limit: int) -> list[str]:
        if limit <= 0:
            return []
        due: list[tuple[int, str]] = []
        for shard in range(DUE_SHARDS):
            partition = f"D#{shard}"
            items = self._query(
                "due_tournaments", DUE_INDEX, partition, TournamentItem.dd <= now, limit
            )
            due += [(int(i["dd"]["N"]), i["pk"]["S"][2:]) for i in items]
        return [tid for _, tid in sorted(due)[:limit]]

    # ------------------------------------------------------------------ small updates

    def _update(
        self,
        operation: str,
        pk: str,
        actions: list[Action],
        condition: Condition,
        size: int,
        index_units: float = 0.0,
    ) -> bool:
        """An UpdateItem whose failed condition is not an error: False then.

        Billed on the whole item (`size`), even when the condition fails; `index_units` only
        when it is applied.
        """
        try:
            with _errors():
                self._conn.update_item(pk, actions=actions, condition=condition)
            applied = True
        except Conflict:
            applied = False
        units = write_units(size) + (index_units if applied else 0.0)
        self.meter.record(operation, write=units)
        return applied

    def touch(self, tournament_id: str, player_id: str, now: int) -> None:
        pk = "T#" + tournament_id
        stamp = Path(["c", player_id])  # the player's entry in the contact map
        condition = TournamentItem.pk.exists() & (stamp.does_not_exist() | (stamp < now))
        # The size is the last one this process saw (the item is not read): an estimate.
        self._update("touch", pk, [stamp.set(now)], condition, self._sizes.get(pk, 0))

    def reschedule(self, tournament_id: str, version: int, due: int | None) -> None:
        pk = "T#" + tournament_id
        actions = _due_actions(tournament_id, due)
        condition = TournamentItem.v == version
        self._update("reschedule", pk, actions, condition, self._sizes.get(pk, 0), 1.0)

    # ------------------------------------------------------------------ commit

    def commit(self, writes: Sequence[Write]) -> None:
        if not writes:
            return
        pks = [record_key(w.record) for w in writes]
        if len(set(pks)) != len(pks):
            raise ValueError("a transaction touches each item once")
        if len(writes) > MAX_TRANSACTION_ITEMS:
            raise ValueError(f"a transaction holds at most {MAX_TRANSACTION_ITEMS} writes")
        ops = [self._operation(w) for w in writes]
        transactional = len(ops) > 1
        try:
            with _errors():
                if transactional:
                    self._transact(ops)
                else:
                    self._conn.connection.dispatch(f"{ops[0].kind}Item", ops[0].kwargs)
        except Conflict:
            # A failed condition is billed too (a cancelled transaction: assumed the same).
            self.meter.record("commit", write=_write_units(ops, transactional, index=False))
            raise
        self.meter.record("commit", write=_write_units(ops, transactional, index=True))
        for op in ops:
            if op.pk.startswith("T#"):
                if op.kind == "Delete":
                    self._sizes.drop(op.pk)
                else:
                    self._sizes.put(op.pk, op.size)

    def _transact(self, ops: list[_Op]) -> None:
        by_kind: dict[str, list[dict[str, Any]]] = {"Put": [], "Update": [], "Delete": []}
        for op in ops:
            by_kind[op.kind].append(op.kwargs)
        self._conn.connection.transact_write_items(
            condition_check_items=[],
            delete_items=by_kind["Delete"],
            put_items=by_kind["Put"],
            update_items=by_kind["Update"],
        )

    def _operation(self, write: Write) -> _Op:
        record = write.record
        pk = record_key(record)
        stored = _Item.v == record.version
        if isinstance(write, Delete):
            attrs = to_item(record, record.version).serialize()
            kwargs = self._conn.get_operation_kwargs(pk, condition=stored)
            return _Op("Delete", kwargs, pk, item_size(attrs), _index_units(pk, attrs, False))
        version = 1 if write.new else record.version + 1
        if isinstance(record, TournamentRecord) and not write.new:
            return self._tournament_update(record, pk, version, stored)
        # A new tournament starts with an empty contact map: touch() sets paths inside it.
        attrs = to_item(record, version, contacts={}).serialize()
        condition = _Item.pk.does_not_exist() if write.new else stored
        kwargs = self._conn.get_operation_kwargs(
            pk, key="Item", attributes=attrs, condition=condition
        )
        return _Op("Put", kwargs, pk, item_size(attrs), _index_units(pk, attrs, write.new))

    def _tournament_update(
        self, record: TournamentRecord, pk: str, version: int, condition: Condition
    ) -> _Op:
        """An existing tournament: SET state, version and due, leaving touch()'s map alone."""
        state = pack_tournament(record)
        actions = [
            TournamentItem.s.set(state),
            TournamentItem.v.set(version),
            *_due_actions(record.id, record.due),
        ]
        kwargs = self._conn.get_operation_kwargs(pk, actions=actions, condition=condition)
        attrs = _tournament_item(record, version, state, dict(record.contacts)).serialize()
        size = max(item_size(attrs), self._sizes.get(pk, 0))
        return _Op("Update", kwargs, pk, size, _index_units(pk, attrs, False))

    # ------------------------------------------------------------------ rate limits, health

    def hit(self, key: str, window_start: int, window_ms: int, limit: int) -> bool:
        if limit <= 0:
            return False
        pk = f"R#{key}#{window_start}"
        expires = -(-(window_start + window_ms) // 1000)  # epoch seconds, rounded up
        actions: list[Action] = [CounterItem.n.add(1), CounterItem.x.set(expires)]
        condition = CounterItem.n.does_not_exist() | (CounterItem.n < limit)
        size = item_size({"pk": {"S": pk}, "n": {"N": str(limit)}, "x": {"N": str(expires)}})
        return self._update("hit", pk, actions, condition, size)

    def create_table(self, *, timeout: float = 60.0) -> bool:
        """See the module's `create_table`."""
        with _errors():
            created = _create_if_missing(self._conn)
            _wait_active(self._conn, timeout)
            _ensure_ttl(self._conn)
        return created

    def delete_table(self) -> None:
        """Drop the table and everything in it (tests, local runs)."""
        with _errors():
            self._conn.delete_table()

    def ping(self) -> None:
        """A GetItem of a key that never exists: the cheapest data-plane call (0.5 unit)."""
        with _errors():
            self._conn.get_item("X#ping", consistent_read=False)
        self.meter.record("ping", read=read_units(0, consistent=False))


def _due_actions(tournament_id: str, due: int | None) -> list[Action]:
    if due is None:
        return [TournamentItem.dk.remove(), TournamentItem.dd.remove()]
    return [TournamentItem.dk.set(due_shard(tournament_id)), TournamentItem.dd.set(due)]


# ---------------------------------------------------------------------------- the table's life


def create_table(settings: Settings, *, timeout: float = 60.0) -> bool:
    """Create the table if it does not exist, wait until it is active, make sure TTL is on.

    Returns True if this call created it.
    """
    return DynamoRepository(settings).create_table(timeout=timeout)


def _create_if_missing(conn: TableConnection) -> bool:
    try:
        conn.describe_table()
        return False
    except TableDoesNotExist:
        pass
    try:
        conn.connection.dispatch("CreateTable", table_definition(conn.table_name))
    except ClientError as exc:
        if _code(exc) == "ResourceInUseException":  # someone else just created it
            return False
        raise
    return True


def _wait_active(conn: TableConnection, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        description = conn.describe_table()
        indexes = description.get("GlobalSecondaryIndexes", [])
        statuses = [description["TableStatus"], *(i.get("IndexStatus", "ACTIVE") for i in indexes)]
        if all(s == "ACTIVE" for s in statuses):
            return
        if time.monotonic() > deadline:
            raise Unavailable(f"table {conn.table_name} is still {statuses}", retry_after=10)
        time.sleep(0.5)


def _ensure_ttl(conn: TableConnection) -> None:
    client = conn.connection.client
    described = client.describe_time_to_live(TableName=conn.table_name)
    if described["TimeToLiveDescription"]["TimeToLiveStatus"] in ("ENABLED", "ENABLING"):
        return
    client.update_time_to_live(
        TableName=conn.table_name, TimeToLiveSpecification=ttl_specification()
    )
