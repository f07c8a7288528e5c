"""Where a player is now, from the player record every authenticated request already reads.

A client on any screen routes from it: `tournament_id` is a live tournament the player is still
playing in (it must be on screen), `lobby_id` a lobby they sit in, `group_id` their group, and
`last_tournament_id` the latest tournament, live or finished, to watch or read its results. A
player who is out or has left is free at once (D14): `tournament_id` is then null.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from api.storage.records import PlayerRecord
from core.tournament_state import Tournament

_COMPACT = json.JSONEncoder(separators=(",", ":"))  # one encoder: json.dumps makes one a call


def where(player: PlayerRecord, t: Tournament | None = None) -> dict[str, Any]:
    """`player`'s position; with `t`, the tournament this request just read (and perhaps
    changed), which is fresher than the record about that one tournament."""
    tournament_id = player.tournament_id
    if t is not None and tournament_id == t.id:
        me = next((p for p in t.players if p.id == player.id), None)
        if me is None or me.lives == 0:
            tournament_id = None  # what the save that put them out wrote to the record (D14)
    return {
        "lobby_id": player.lobby_id,
        "tournament_id": tournament_id,
        "group_id": player.group_id,
        "last_tournament_id": player.last_tournament_id,
    }


def header(place: dict[str, Any]) -> str:
    """The `Where` response header: the same object as compact JSON (ids are ASCII)."""
    return _COMPACT.encode(place)


def fingerprint(header_text: str) -> str:
    """A short tag of the position (from its header text), part of the state's ETag: a 304
    never hides a move."""
    return f"{zlib.crc32(header_text.encode()):08x}"
