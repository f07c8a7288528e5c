"""D19 fair play: a tournament's signals from hand-made boards, their accumulation into a
bounded record, the verdict and the operators' decisions (core.fairplay)."""

from __future__ import annotations

import json
import math
import random

import pytest

from core import analysis, seeds
from core.duel import Duel, Turn, Word
from core.fairplay import record as fr
from core.fairplay import signals as sg
from core.fairplay import verdict as vd
from core.fairplay.record import FairPlay
from core.fairplay.signals import RowFacts, Tally
from core.feedback import score
from core.solver import board as sb
from tests.core.helpers import real_words

EN = real_words("en")
LEX = EN.lexicon(5)  # type: ignore[misc]


def _duel(secret: str, rows: list[tuple[str | None, int]], start: int = 6_000) -> Duel:
    """An ended duel of p0 (first) and p1 whose turns are `rows`: (word or None for a skip,
    seconds the turn took)."""
    turns = []
    at = start
    for i, (word, seconds) in enumerate(rows):
        at += seconds * 1000
        w: Word | None = None if word is None else tuple(word)
        marks = None if w is None else score(tuple(secret), w)
        turns.append(Turn(("p0", "p1")[i % 2], w, marks, at))
    won = rows[-1][0] == secret
    winner = ("p0", "p1")[(len(rows) - 1) % 2] if won else None
    return Duel("d1", ("p0", "p1"), tuple(secret), start, 30_000, tuple(turns), at, winner)


def _facts(duel: Duel, player: str, seed: int = 7) -> list[RowFacts]:
    return sg.rows_of(player, duel, analysis.analyse(duel, LEX, seed), LEX)


def test_d19_signals_of_a_board_judge_informed_rows_with_candidates_left() -> None:
    duel = _duel("actor", [("slate", 4), ("pious", 9), (None, 30), ("croak", 12), ("actor", 3)])
    a = analysis.analyse(duel, LEX, 7)
    p0, p1 = _facts(duel, "p0"), _facts(duel, "p1")
    # p0 played rows 0 (the opening), 2 was p0's skip, 4; p1 rows 1 and 3
    assert [f.seconds for f in p0] == [4, 3] and [f.seconds for f in p1] == [9, 12]
    assert p0[0].opening and not p0[1].opening and not any(f.opening for f in p1)
    assert [f.before for f in p1] == [a.rows[1].before, a.rows[3].before]
    t = sg.tally(p1)
    judged = [f for f in p1 if f.before >= sg.JUDGED_FROM]
    assert t.tournaments == 1 and t.guesses == 2 and t.timed == 2
    assert t.rows == len(judged) >= 1  # "pious" is played with hundreds of candidates left
    assert t.best == sum(f.played_expected <= f.best_expected for f in judged)
    assert t.skill == sum(f.skill for f in judged)
    opening = sg.tally(p0)
    assert opening.rows == (1 if p0[1].before >= sg.JUDGED_FROM else 0)
    assert opening.timed == 1  # the opening row has no answer time against difficulty either


def test_d19_the_best_word_played_on_a_row_counts_as_best_and_near() -> None:
    secret = "actor"
    first = _duel(secret, [("slate", 5), ("pious", 5)])
    # the coach's options on row 1 for this very board (the analysis draws them from the seed)
    steps = sb.steps(LEX, sb.board_of(first), seeds.stream(7, "d1", "analysis"))
    best = "".join(steps[1].options[0].word)
    assert best != "pious"
    duel = _duel(secret, [("slate", 5), (best, 5)])
    facts = _facts(duel, "p1")
    assert len(facts) == 1 and facts[0].before >= sg.JUDGED_FROM
    t = sg.tally(facts)
    assert (t.rows, t.best, t.near, t.skill) == (1, 1, 1, 100)


def test_d19_rare_words_are_the_accepted_words_that_are_never_secrets() -> None:
    secrets = set(LEX.secrets)
    rare = next(w for w in LEX.universe if w not in secrets)
    common = next(w for w in LEX.secrets if w != tuple("actor"))
    duel = _duel("actor", [("".join(rare), 5), ("".join(common), 5), ("actor", 5)])
    p0, p1 = _facts(duel, "p0"), _facts(duel, "p1")
    assert [f.rare for f in p0] == [True, False] and [f.rare for f in p1] == [False]
    assert sg.tally(p0).rare_rate == 0.5


def _rows(n: int, seconds: float, before: int = 100, best: bool = False) -> list[RowFacts]:
    e_best = 2.0
    played = e_best if best else 9.0
    skill = analysis.skill_score(before, played, e_best)
    return [RowFacts(before, False, played, e_best, skill, False, seconds) for _ in range(n)]


def test_d19_answer_times_against_difficulty() -> None:
    # slower on harder rows: ln(seconds) grows by 0.3 per bit of difficulty
    rows = [
        RowFacts(2**bits, False, 1.0, 1.0, 50, False, math.exp(1 + 0.3 * bits))
        for bits in (4, 6, 8, 10)
    ]
    t = sg.tally(rows)
    assert t.time_slope == pytest.approx(0.3, abs=0.01)
    assert t.median_seconds == pytest.approx(math.exp(1 + 0.3 * 7), rel=0.01)
    flat = sg.tally(_rows(5, 4.0) + _rows(5, 4.0, before=1000))
    assert flat.time_slope == pytest.approx(0.0, abs=1e-9) and flat.time_spread == 0.0
    spread = sg.tally([*_rows(10, 2.0), *_rows(10, 20.0)])
    assert spread.time_spread == pytest.approx(math.log(10) / 2 * math.sqrt(20 / 19), rel=0.01)


def test_d19_a_tally_adds_up_field_by_field() -> None:
    a, b = sg.tally(_rows(3, 5.0, best=True)), sg.tally(_rows(4, 8.0))
    both = a + b
    assert both.values() == tuple(x + y for x, y in zip(a.values(), b.values(), strict=True))
    assert both.tournaments == 2 and both.rows == 7 and both.best == 3
    assert sg.tally([*_rows(3, 5.0, best=True), *_rows(4, 8.0)]).values()[1:] == both.values()[1:]


# ---------------------------------------------------------------------------- the record


def _big_tournament(rng: random.Random) -> Tally:
    rows = [
        RowFacts(
            rng.choice((10, 100, 1500)),
            rng.random() < 0.2,
            rng.random() * 9,
            rng.random() * 2,
            rng.randrange(101),
            rng.random() < 0.5,
            rng.choice((0.05, 3.0, 29.9)),
        )
        for _ in range(60)  # more rows than any tournament has
    ]
    return sg.tally(rows)


def test_d19_the_record_stays_small_however_many_tournaments() -> None:
    rng = random.Random(3)
    rec = FairPlay()
    sizes = []
    for n in range(1, 2001):
        rec = fr.add(rec, _big_tournament(rng))
        if n in (1, 10, 100, 2000):
            sizes.append(len(json.dumps(fr.to_item(rec), separators=(",", ":"))))
    assert rec.tournaments == 2000 and rec.all.tournaments == 2000
    assert rec.previous.tournaments == fr.BLOCK and rec.current.tournaments < fr.BLOCK
    assert max(sizes) <= 400, sizes
    assert sizes[-1] - sizes[1] < 60  # only the sums' digits grow
    assert fr.from_item(json.loads(json.dumps(fr.to_item(rec)))) == rec


def test_d19_recent_windows_roll_by_blocks() -> None:
    rec = FairPlay()
    one = sg.tally(_rows(2, 5.0))
    for n in range(1, 3 * fr.BLOCK + 3):
        rec = fr.add(rec, one)
        assert rec.recent.tournaments == (n if n < 2 * fr.BLOCK else fr.BLOCK + n % fr.BLOCK)
        assert rec.current.tournaments == n % fr.BLOCK
    names = [name for name, _ in fr.windows(rec)]
    assert names == ["all", "recent", "current"]


# ---------------------------------------------------------------------------- the verdict


def test_d19_solver_like_choices_are_flagged_and_people_like_ones_are_not() -> None:
    th = vd.DEFAULT
    solver = sg.tally(_rows(6, 3.0, best=True))
    person = sg.tally(_rows(1, 14.0, best=True) + _rows(30, 14.0))
    v = vd.flag(solver, th)
    assert v.flagged and v.reasons[0].code == "choices" and v.score >= 1
    assert "6 and a near-best one" in v.reasons[0].detail
    wb, _, wo = th.weights
    assert vd.choices(solver, th) == pytest.approx(6 * wb / math.log(10))
    assert vd.choices(person, th) == pytest.approx((wb + 30 * wo) / math.log(10))
    assert not vd.flag(person, th).flagged
    # fewer judged rows than min_rows: nothing is said
    assert not vd.flag(sg.tally(_rows(th.min_rows - 1, 3.0, best=True)), th).flagged


def test_d19_mechanical_times_flag_only_with_near_best_words() -> None:
    th = vd.DEFAULT
    near = [RowFacts(100, False, 2.2, 2.0, 97, False, 2.0 + 0.01 * i) for i in range(25)]
    assert not vd.mechanical(sg.tally(near[: th.min_timed - 1]), th)  # too few timed rows
    v = vd.flag(sg.tally(near), th)
    assert "mechanical" in {r.code for r in v.reasons}
    sloppy = [RowFacts(100, False, 9.0, 2.0, 40, False, 2.0) for _ in range(25)]
    assert not vd.mechanical(sg.tally(sloppy), th)


def test_d19_record_verdict_and_operator_decisions() -> None:
    rec = fr.add(FairPlay(), sg.tally(_rows(8, 3.0, best=True)))
    assert fr.listed(rec)
    flagged = fr.judge(rec, now=100)
    assert flagged.status == fr.FLAGGED and flagged.reasons == ("choices",)
    assert flagged.status_at == 100 and not fr.listed(flagged)
    assert fr.judge(flagged, now=200) == flagged  # a standing flag is kept as it was
    confirmed = fr.confirm(flagged, "ops-ann", 300)
    assert confirmed.status == fr.CONFIRMED and confirmed.by == "ops-ann"
    assert fr.confirm(confirmed, "ops-ann", 400) == confirmed and not fr.listed(confirmed)
    cleared = fr.clear(confirmed, "ops-bob", 500)
    assert cleared.status == fr.CLEARED and fr.listed(cleared)
    assert cleared.all == sg.EMPTY and cleared.tournaments == 1  # evidence restarts
    assert fr.clear(cleared, "ops-bob", 600) == cleared
    with pytest.raises(fr.ReviewError):
        fr.confirm(cleared, "ops-ann", 700)
    with pytest.raises(fr.ReviewError):
        fr.clear(FairPlay(), "ops-ann", 700)
    # a cleared player is judged again on new tournaments only
    again = fr.judge(fr.add(cleared, sg.tally(_rows(8, 3.0, best=True))), now=800)
    assert again.status == fr.FLAGGED
    assert fr.from_item(fr.to_item(again)) == again
    assert fr.listed(None)


def test_d19_a_solver_starting_after_an_honest_history_is_seen_on_the_recent_windows() -> None:
    honest = sg.tally(_rows(1, 14.0, best=True) + _rows(6, 14.0))
    rec = FairPlay()
    for _ in range(50):
        rec = fr.add(rec, honest)
    solver = sg.tally(_rows(4, 3.0, best=True))
    flagged_after = None
    for n in range(1, 2 * fr.BLOCK + 1):
        rec = fr.add(rec, solver)
        if fr.flag(rec).flagged:
            flagged_after = n
            break
    assert flagged_after is not None and flagged_after <= fr.BLOCK
    assert vd.choices(rec.all) < 0  # the long honest history alone would hide it
    assert fr.flag(rec).reasons[0].code.startswith(("recent", "current"))


def test_d19_stored_records_reject_unknown_formats() -> None:
    item = fr.to_item(FairPlay())
    assert fr.from_item(None) == FairPlay() and fr.from_item({}) == FairPlay()
    with pytest.raises(ValueError):
        fr.from_item({**item, "f": 99})
    with pytest.raises(ValueError):
        fr.from_item({**item, "s": "banned"})
    with pytest.raises(ValueError):
        fr.from_item({**item, "a": [1, 2, 3]})
