"""D19 in the service: fair play judged when a place is fixed, and the operators' store.

When places are fixed (Tournaments._save → history.place_writes, in the transaction that fixes
them, R16), `judge` calls core.fairplay.placed.on_place for each placed player with the
fair-play record read from their statistics item: it gives the rating change to apply (a farm's
walk-over gains refused, core.fairplay.farming) and the new record, which is stored in the same
statistics item. Bots are never judged (on_place returns them unchanged). The duels' analyses
come from the coach's per-instance cache (api/service/analysis.py) when it has them, and the
new ones go into it.

The operators' command (`wordle-tournament fairplay`, api/cli/fairplay.py) reads and decides
through `store(repo)`: the players whose status is not ok come from a sparse partition of an
index (Repository.fair_play_reviews, never a scan), and a decision is written only if the record
did not change since it was read (the statistics item's version).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

from api.service.analysis import ANALYSES, AnalysisCache, lexicon_of
from api.service.context import Context
from api.storage.records import PlayerRecord, StatsRecord
from api.storage.repository import Commits, Conflict, History, Put
from core.fairplay.record import OK, FairPlay
from core.tournament_state import Tournament

if TYPE_CHECKING:
    from core.analysis import DuelAnalysis
    from core.fairplay.placed import Placed


def judge(
    ctx: Context,
    t: Tournament,
    placed: Sequence[PlayerRecord],
    stored: Mapping[str, StatsRecord],
    cache: AnalysisCache = ANALYSES,
) -> dict[str, Placed]:
    """on_place for every player of `placed` (whose place `t` has just fixed), from the
    records in their statistics `stored`: by player id, the change to apply and the new record.
    The analyses are shared between the players (each duel is analysed once)."""
    if not placed:
        return {}
    from core.fairplay.placed import duels_of, on_place

    lexicons = lexicon_of(ctx, t.language)
    humans = [p for p in placed if not t.player(p.id).bot]
    duels = [d for p in humans for d in duels_of(t, p.id)]
    analyses: dict[str, DuelAnalysis] = cache.known(t, duels)
    before = set(analyses)
    now = ctx.now()
    out: dict[str, Placed] = {}
    for p in placed:
        current = stored.get(p.id)
        record = current.fairplay if current is not None else None
        settled = on_place(t, p.id, record or FairPlay(), lexicons, now, analyses)
        analyses.update(settled.analyses)
        out[p.id] = settled
    cache.keep(t, [d for d in duels if d.id not in before], analyses)
    return out


class FairPlayRepository(History, Commits, Protocol):
    """What the operators' store needs of storage."""


class FairPlayRecords:
    """api/cli/fairplay.py's FairPlayStore, on the players' statistics items."""

    def __init__(self, repo: FairPlayRepository) -> None:
        self.repo = repo

    def records(self) -> Iterator[tuple[str, FairPlay]]:
        for s in self.repo.fair_play_reviews():
            if s.fairplay is not None and s.fairplay.status != OK:
                yield s.player_id, s.fairplay

    def get(self, player_id: str) -> FairPlay | None:
        found = self.repo.get_stats([player_id])
        return found[0].fairplay if found else None

    def swap(self, player_id: str, old: FairPlay, new: FairPlay) -> bool:
        """Store `new` if the record is still `old`: the statistics item is written only at the
        version it was read at, so a place fixed meanwhile makes this False (read again)."""
        found = self.repo.get_stats([player_id])
        if not found or found[0].fairplay != old:
            return False
        try:
            self.repo.commit([Put(replace(found[0], fairplay=new))])
        except Conflict:
            return False
        return True


def store(repo: FairPlayRepository) -> FairPlayRecords:
    """The operators' store over `repo` (the CLI passes the deployment's table)."""
    return FairPlayRecords(repo)
