"""Records to store: players, lobbies, groups and tournaments (multi-tile ones too)."""

from __future__ import annotations

import random
from collections.abc import Collection

from api.storage.records import GroupRecord, LobbyRecord, PlayerRecord, TournamentRecord
from core import tournament as tm
from core.groups import Group
from core.lobby import Lobby, LobbySeat
from core.simulation import NEVER_MS, SIM_WORDS, PlayerModel, play_duel
from core.timing import Timing
from core.words import Word, WordSource

UZ_TILES = ("oʻ", "gʻ", "sh", "ch", "a", "d", "k", "r", "u", "i")


def _uz_word(length: int, rng: random.Random, exclude: Collection[Word]) -> Word:
    if length == 5 and ("oʻ", "r", "d", "a", "k") not in exclude:
        return ("oʻ", "r", "d", "a", "k")
    while True:
        word = tuple(rng.choice(UZ_TILES) for _ in range(length))
        if word not in exclude:
            return word


UZ_WORDS = WordSource(accepts=lambda word: True, draw=_uz_word)


def seats(n: int = 8, rating: int = 1000) -> list[tm.Seat]:
    return [tm.Seat(f"p{i}", f"Player {i}", rating + i) for i in range(n)]


def player(pid: str = "p1", **fields: object) -> PlayerRecord:
    base: dict[str, object] = {
        "id": pid,
        "token_hash": "h" * 64,
        "nickname": f"Nick {pid}",
        "rating": 1000,
        "created_at": 1_700_000_000_000,
    }
    return PlayerRecord(**{**base, **fields})  # type: ignore[arg-type]


def lobby(
    lid: str = "l1",
    language: str = "en",
    ratings: tuple[int, ...] = (1000,),
    created_at: int = 1_000,
    tournament_id: str | None = None,
    version: int = 0,
    seen: int = 0,
) -> LobbyRecord:
    seated = tuple(LobbySeat(f"{lid}-p{i}", r, seen) for i, r in enumerate(ratings))
    return LobbyRecord(Lobby(lid, language, created_at, seated), tournament_id, version)


def group(gid: str = "g1", members: tuple[str, ...] = ("p1", "p2")) -> GroupRecord:
    return GroupRecord(Group(gid, "en", members, "INVITE42", 5_000), lobby_id="l9")


def live_tournament(
    tid: str = "t1", now: int = 1_000_000, language: str = "uz"
) -> TournamentRecord:
    t, _ = tm.start(tid, language, seats(), now, random.Random(tid), UZ_WORDS)
    return TournamentRecord(t, due=t.next_deadline())


def finished_tournament(tid: str = "t1", seed: int = 1) -> TournamentRecord:
    """A whole 8-player tournament played out by the simulator's players."""
    rng = random.Random(seed)
    timing = Timing(reconnect_ms=NEVER_MS)
    t, _ = tm.start(tid, "en", seats(), 1_700_000_000_000, rng, SIM_WORDS, timing)
    model = PlayerModel()
    while t.finished_at is None:
        duels = [play_duel(d, rng, model) for d in t.rounds[-1].duels]
        t, _ = tm.record_duels(t, duels, SIM_WORDS)
    return TournamentRecord(t, due=None)
