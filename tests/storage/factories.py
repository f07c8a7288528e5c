"""Records to store: players, lobbies, groups and tournaments (multi-tile ones too), history
lines, statistics and leaderboard snapshots."""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import replace

from api.storage.records import (
    GroupRecord,
    HistoryRecord,
    LobbyRecord,
    PlayerRecord,
    TournamentRecord,
)
from core import tournament as tm
from core.groups import Group
from core.leaderboard import ALL, Board, Listed
from core.lobby import Lobby, LobbySeat
from core.results import Result
from core.simulation import NEVER_MS, SIM_WORDS, PlayerModel, play_duel
from core.stats import Stats, add
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


# ---------------------------------------------------------------------------- history

DAY = 86_400_000
NOW = 1_760_000_000_000


def line(
    pid: str, tid: str, finished_at: int, place: int = 3, language: str = "en"
) -> HistoryRecord:
    result = Result(
        tournament_id=tid,
        language=language,
        started_at=finished_at - 900_000,
        finished_at=finished_at,
        place=place,
        rating_before=1000,
        rating_after=1011,
        rounds=7,
        won=3,
        drawn=1,
        lost=3,
        wins_in=(2, 5, 1),
        left=place == 8,
    )
    return HistoryRecord(pid, result)


def stats(nickname: str = "Zoë ʻOʻ", bot: bool = False, results: int = 3, at: int = NOW) -> Stats:
    """Statistics after `results` results, the last one finished at `at`."""
    s: Stats | None = None
    for i in range(results):
        finished = at - (results - 1 - i) * 3_600_000
        r = replace(line("x", f"t{i}", finished, place=1 + i % 8).result, rating_after=1001 + i)
        s = add(s, replace(r, rating_before=1000 + i), nickname, bot, finished + 7)
    assert s is not None
    return s


def board(as_of: int, name: str = ALL, top: int = 3) -> Board:
    lines = tuple(Listed(f"p{i}", f"Zoë {i}", 1500 - i, as_of - i) for i in range(top))
    counts = tuple((1500 - i, 1 + i % 3) for i in range(top + 40))
    return Board(name, as_of, lines, counts, tuple(as_of - k for k in range(top % 3)))
