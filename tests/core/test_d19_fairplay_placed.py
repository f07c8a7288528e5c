"""D19: the service's one call when a place is fixed (core.fairplay.placed.on_place), on whole
tournaments of real words played through core: a solver client is flagged and leaves the
leaderboards within 5 tournaments, people like the house bots' easy and medium styles are not,
and the rating change is R15–R17's when nobody walks away."""

from __future__ import annotations

import random

from core import bots
from core import tournament as tm
from core.fairplay import record as fr
from core.fairplay.placed import duels_of, on_place
from core.fairplay.record import FairPlay
from core.solver import board as sb
from core.solver.lexicon import Lexicon
from tests.core.helpers import NO_DISCONNECTS, PIDS, real_words

EN = real_words("en")
SOLVER = PIDS[0]


def _lexicon(n: int) -> Lexicon:
    assert EN.lexicon is not None
    return EN.lexicon(n)


def _word(t: tm.Tournament, player: str, rng: random.Random) -> tuple[str, ...]:
    duel = t.round.duel_of(player)
    assert duel is not None
    lex = _lexicon(len(duel.secret))
    rows = [(x.word, x.marks or "") for x in duel.turns if x.word is not None]
    if player == SOLVER:
        left = sb.candidates(lex, rows)
        found = [sb.options(lex, left, rng)[0] for _ in range(3)]
        return min(found, key=lambda o: (o.expected, o.word)).word
    style = bots.EASY if int(player[1:]) % 2 else bots.MEDIUM
    return bots.pick(lex, style, rows, bots.vocabulary(lex, style, rng), rng)


def _tournament(seed: int, ratings: dict[str, int], bot: str | None = None) -> tm.Tournament:
    rng = random.Random(seed)
    seats = [tm.Seat(p, p, ratings[p], bot=p == bot) for p in PIDS]
    t, _ = tm.start(f"t{seed}", "en", seats, 0, rng, EN, NO_DISCONNECTS)
    paces: dict[tuple[str, int], int] = {}
    while not t.finished:
        # the next move of every live duel, played in time order (no turn runs out)
        moves = []
        for d in t.round.duels:
            if d.ended_at is None:
                key = (f"{t.round.number}{d.id}", len(d.turns))
                if key not in paces:  # within a turn (R10: 30 s)
                    solver = d.to_play == SOLVER
                    paces[key] = 2_000 if solver else rng.randrange(4_000, 25_000)
                moves.append((max(d.turn_started_at, t.round.starts_at) + paces[key], d.id))
        at, duel_id = min(moves)
        d = next(x for x in t.round.duels if x.id == duel_id)
        t, _ = tm.guess(t, d.to_play, len(d.turns), _word(t, d.to_play, rng), at, EN)
    return t


def test_d19_on_place_flags_a_solver_client_within_5_tournaments() -> None:
    ratings = {p: 1000 for p in PIDS}
    records = {p: FairPlay() for p in PIDS}
    flagged_after = None
    for n in range(1, 6):
        t = _tournament(n, ratings)
        for p in t.players:
            placed = on_place(t, p.id, records[p.id], _lexicon, now=n)
            assert placed.change == placed.full == p.rating_change  # nobody walked away
            assert set(placed.analyses) == {d.id for d in duels_of(t, p.id)}
            assert placed.record.tournaments == n
            records[p.id] = placed.record
            ratings[p.id] += placed.change
        if flagged_after is None and not fr.listed(records[SOLVER]):
            flagged_after = n
    assert flagged_after is not None and flagged_after <= 5
    assert "choices" in records[SOLVER].reasons
    assert all(fr.listed(records[p]) for p in PIDS if p != SOLVER)
    assert (records[SOLVER].all.best_rate or 0) > 0.5


def test_d19_on_place_reuses_analyses_and_leaves_bots_alone() -> None:
    t = _tournament(9, {p: 1000 for p in PIDS}, bot=PIDS[3])
    first = on_place(t, PIDS[1], FairPlay(), _lexicon, now=1)
    again = on_place(t, PIDS[1], FairPlay(), _lexicon, now=1, analyses=first.analyses)
    assert again.record == first.record and again.analyses == first.analyses
    bot = on_place(t, PIDS[3], FairPlay(), _lexicon, now=1)
    assert bot.record == FairPlay() and bot.change == t.player(PIDS[3]).rating_change
