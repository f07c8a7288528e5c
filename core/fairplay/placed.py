"""D19: what the service does when a player's place is fixed (R16), in one pure call.

    outcome = on_place(t, player_id, record, lexicon_of, now, analyses)

- `outcome.change` is the rating change to apply, instead of the tournament's own
  `Player.rating_change`: the same, less what a farm would gain (core.fairplay.farming);
- `outcome.record` is the player's fair-play record to store with their statistics (its
  `to_item` is a few hundred bytes, fixed in size), with this tournament's signals added and the
  verdict applied (core.fairplay.record);
- `outcome.analyses` are the analyses of the player's duels (core.analysis), computed for those
  missing from `analyses`: the coach serves the same ones, so the caller may keep them.

A player's duels have all ended once their place is fixed, so their signals are complete then.
House bots and other bots are not judged (they are on no leaderboard, D18) and never quit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from core import analysis
from core.analysis import DuelAnalysis
from core.duel import Duel
from core.fairplay import farming, signals
from core.fairplay import record as fr
from core.fairplay.record import FairPlay
from core.fairplay.verdict import DEFAULT, Thresholds
from core.solver.lexicon import Lexicon
from core.tournament_state import Tournament


@dataclass(frozen=True, slots=True)
class Placed:
    change: int  # the rating change to apply
    full: int  # R15–R17's (the tournament's own)
    refused: tuple[str, ...]  # opponents whose walk-over or repeated quit earned nothing
    signals: signals.Tally  # this tournament's
    record: FairPlay
    analyses: Mapping[str, DuelAnalysis]


def duels_of(t: Tournament, player_id: str) -> list[Duel]:
    """The ended duels `player_id` played in `t`."""
    return [
        d
        for rnd in t.rounds
        for d in rnd.duels
        if player_id in d.players and d.ended_at is not None
    ]


def on_place(
    t: Tournament,
    player_id: str,
    record: FairPlay,
    lexicon_of: Callable[[int], Lexicon],
    now: int,
    analyses: Mapping[str, DuelAnalysis] | None = None,
    th: Thresholds = DEFAULT,
) -> Placed:
    """See the module docstring. `lexicon_of(length)`: the tournament language's words of that
    length (core.words.WordSource.lexicon); `now`: the time the result is recorded."""
    p = t.player(player_id)
    if p.rating_change is None:
        raise ValueError(f"the place of {player_id} is not fixed yet")
    if p.bot:
        return Placed(p.rating_change, p.rating_change, (), signals.EMPTY, record, {})
    s = farming.settle(t, player_id, record.farm, fr.farm_flagged(record))
    record = fr.settle_farm(record, s, now)
    known = dict(analyses or {})
    duels = duels_of(t, player_id)
    for d in duels:
        if d.id not in known:
            known[d.id] = analysis.analyse(d, lexicon_of(len(d.secret)), t.seed)
    tally = signals.of_player(player_id, duels, known, lexicon_of)
    record = fr.judge(fr.add(record, tally), now, th)
    return Placed(s.change, s.full, s.refused, tally, record, known)
