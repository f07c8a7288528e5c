"""D19: the coach. A duel's analysis (core.analysis), served once the duel has ended.

Who may read it: while the tournament is live, its players (as every other tournament route
decides, `Tournaments.state`); once it has finished, anyone, as its public results. A duel still
being played is a 409 `duel_in_play` whose body names the duel only: never its secret, its
board's candidates or a best word (that would be a hint).

An ended duel never changes, so its analysis is the same for good (the same seed draws the same
options, core.analysis): clients and caches keep it (`Coached.etag` names the method's version).
It takes a few milliseconds to compute, and the duels just played are the ones asked for (by
both players and their spectators, and again by `on_place` when their places are fixed, in the
transaction that fixes them), so each instance keeps the latest `CACHE_SIZE` in a bounded cache:
a hit saves the computation, a miss costs only it; nothing depends on it being there.

The solver is imported on first use: a cold start that serves no analysis never loads it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from api.service import errors
from api.service.context import Context, guarded, is_id
from api.storage.records import PlayerRecord
from core.duel import Duel
from core.errors import GameError
from core.tournament_state import Tournament

if TYPE_CHECKING:
    from api.service.tournaments import Tournaments
    from core.analysis import DuelAnalysis
    from core.solver.lexicon import Lexicon

CACHE_SIZE = 512  # analyses kept per instance: a few KB each
# Of the JSON around core's analysis (`tournament`, `round`, `language`, `word_length`): with
# core.analysis.VERSION it makes the entity tag.
FORMAT = 1

# The tournament's id and seed, and the ended duel itself (its whole board): an attempt that
# analysed a duel and then lost its commit to another request (which ended the duel another way)
# leaves an entry no stored duel matches, never a wrong analysis of the duel that was stored.
Key = tuple[str, int, Duel]


def lexicon_of(ctx: Context, language: str) -> Callable[[int], Lexicon]:
    """The solver's index of `language`'s words, by length (api.words builds each once)."""
    source = ctx.words(language).lexicon
    if source is not None:
        return source
    from api import words

    return lambda length: words.lexicon(language, length)


class AnalysisCache:
    """The latest analyses computed by this instance, least recently used out first."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._kept: OrderedDict[Key, DuelAnalysis] = OrderedDict()
        self._lock = threading.Lock()

    def known(self, t: Tournament, duels: Iterable[Duel]) -> dict[str, DuelAnalysis]:
        """The analyses of `duels` (ended duels of `t`, as they are) this instance has, by id."""
        found = {}
        with self._lock:
            for d in duels:
                key = (t.id, t.seed, d)
                a = self._kept.get(key)
                if a is not None:
                    self._kept.move_to_end(key)
                    found[d.id] = a
        return found

    def keep(
        self, t: Tournament, duels: Iterable[Duel], analyses: Mapping[str, DuelAnalysis]
    ) -> None:
        """Keep the analyses of `duels` (of `t`) found in `analyses` (by duel id)."""
        with self._lock:
            for d in duels:
                a = analyses.get(d.id)
                if a is None:
                    continue
                key = (t.id, t.seed, d)
                self._kept[key] = a
                self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)

    def analysis(self, ctx: Context, t: Tournament, duel: Duel) -> DuelAnalysis:
        """The analysis of an ended duel of `t`, computed if this instance has none."""
        known = self.known(t, [duel]).get(duel.id)
        if known is not None:
            return known
        from core.analysis import analyse

        try:
            made = analyse(duel, lexicon_of(ctx, t.language)(len(duel.secret)), t.seed)
        except GameError as exc:  # a live duel (never reached: the caller checks first)
            raise errors.from_game_error(exc) from exc
        self.keep(t, [duel], {duel.id: made})
        return made


# One per process (a Lambda instance): shared by the coach and by place fixing.
ANALYSES = AnalysisCache()


def etag() -> str:
    from core.analysis import VERSION

    return f'"a{VERSION}.{FORMAT}"'


@dataclass(frozen=True, slots=True)
class Coached:
    """What the route serves: the analysis (made only when a body is sent), its entity tag,
    and whether anyone may read it (the tournament has finished) or only its players."""

    etag: str
    public: bool
    make: Callable[[], dict[str, Any]]


def _find(t: Tournament, duel_id: str) -> tuple[int, Duel]:
    for rnd in t.rounds:
        for duel in rnd.duels:
            if duel.id == duel_id:
                return rnd.number, duel
    raise errors.NotFound(f"duel {duel_id} not found in tournament {t.id}")


class Coach:
    def __init__(self, ctx: Context, tournaments: Tournaments, cache: AnalysisCache = ANALYSES):
        self.ctx = ctx
        self.tournaments = tournaments
        self.cache = cache

    def analysis(
        self, tournament_id: str, duel_id: str, player_of: Callable[[], PlayerRecord]
    ) -> Coached:
        """D19: the analysis of one ended duel. `player_of()` authenticates the caller; it is
        asked only while the tournament is live (once finished, the analysis is public)."""
        stored = None
        if is_id(tournament_id, "t"):
            stored = guarded(lambda: self.ctx.repo.get_tournament(tournament_id))
        if stored is None:
            raise errors.NotFound(f"tournament {tournament_id} not found")
        t = stored.tournament
        if t.finished_at is None:  # live: its players only, brought to now (as `state`)
            t = self.tournaments.state(player_of(), tournament_id).tournament
        number, duel = _find(t, duel_id)
        if duel.ended_at is None:
            raise errors.Conflict(
                f"duel {duel_id} is still being played: its analysis comes once it has ended",
                code="duel_in_play",
                duel=duel_id,
            )
        ended = t

        def make() -> dict[str, Any]:
            a = self.cache.analysis(self.ctx, ended, duel)
            return {
                "tournament": ended.id,
                "round": number,
                "language": ended.language,
                "word_length": len(duel.secret),
                **a.to_json(),
            }

        return Coached(etag(), t.finished_at is not None, make)
