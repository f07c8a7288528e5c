"""D19: the coach's analysis of an ended duel (core.analysis), never of a live one."""

from __future__ import annotations

import json
import math
import random

import pytest

from core import analysis, bots, errors
from core import tournament as tm
from core.duel import Duel, Turn
from core.evolve import evolve
from core.feedback import score
from core.solver.board import candidates
from core.timing import Timing
from tests.core.helpers import PIDS, real_words, start

EN = real_words("en")
RATINGS = [800, 850, 900, 1000, 1050, 1150, 1300, 1400]


def bot_duels(seed: int) -> tuple[int, list[Duel]]:
    """Round 1's duels of a tournament of house bots, played to their end."""
    t = start(seed=seed, ratings=RATINGS, timing=Timing(), words=EN, house=PIDS)
    t, _ = tm.advance(t, 10**9, EN)
    return t.seed, list(t.rounds[0].duels)


def test_d19_no_analysis_of_a_duel_still_in_play() -> None:
    t = start(seed=1, ratings=RATINGS, timing=Timing(), words=EN, house=PIDS)
    t, _ = tm.advance(t, t.round.starts_at + 20_000, EN)
    live = next(d for d in t.round.duels if d.ended_at is None)
    lex = EN.lexicon(len(live.secret))  # type: ignore[misc]
    with pytest.raises(errors.DuelInPlay) as refused:
        analysis.analyse(live, lex, t.seed)
    assert refused.value.code == "duel_in_play" and live.id in str(refused.value)


def test_d19_every_row_counts_its_candidates_and_scores_its_choice() -> None:
    seed, duels = bot_duels(4)
    for duel in duels:
        lex = EN.lexicon(len(duel.secret))  # type: ignore[misc]
        a = analysis.analyse(duel, lex, seed)
        assert len(a.rows) == len(duel.turns) and a.secret == duel.secret
        rows = []
        for r, turn in zip(a.rows, duel.turns, strict=True):
            assert r.player == turn.player and r.word == turn.word
            assert r.before == candidates(lex, rows).bit_count()
            if turn.word is None:
                assert (r.skill, r.luck, r.best) == (None, None, None)
                assert r.after == r.before
                continue
            rows.append((turn.word, turn.marks))
            after = candidates(lex, rows).bit_count()
            assert r.after == (0 if turn.word == duel.secret else after)
            assert r.best_expected is not None and r.played_expected is not None
            assert r.best_expected <= r.played_expected
            assert r.skill is not None and 0 <= r.skill <= 100
            assert r.luck is not None and 0 <= r.luck <= 100
            if r.best == r.word:
                assert r.skill == 100
        for s in a.summary:
            mine = [r.skill for r in a.rows if r.player == s.player and r.skill is not None]
            assert s.guesses == len(mine)
            assert s.skill == (round(sum(mine) / len(mine)) if mine else None)


def test_d19_the_analysis_is_reproducible_and_served_as_plain_json() -> None:
    seed, duels = bot_duels(6)
    duel = duels[0]
    lex = EN.lexicon(len(duel.secret))  # type: ignore[misc]
    first = analysis.analyse(duel, lex, seed)
    assert analysis.analyse(duel, lex, seed) == first
    data = json.loads(json.dumps(first.to_json()))
    assert data["version"] == analysis.VERSION and data["duel"] == duel.id
    assert data["secret"] == list(duel.secret)
    assert [r["by"] for r in data["rows"]] == [t.player for t in duel.turns]
    assert {s["player"] for s in data["players_summary"]} == set(duel.players)


def test_d19_skill_is_100_for_the_best_word_and_0_for_a_word_that_tells_nothing() -> None:
    assert analysis.skill_score(100, 3.0, 3.0) == 100
    assert analysis.skill_score(100, 100.0, 3.0) == 0
    assert analysis.skill_score(100, 150.0, 3.0) == 0  # clamped
    half = analysis.skill_score(99, math.sqrt(100 * 5) - 1, 4.0)  # half-way on the log scale
    assert half == 50
    # one word left: playing it scores 100, anything else 0
    assert analysis.skill_score(1, 0.0, 0.0) == 100
    assert analysis.skill_score(1, 1.0, 0.0) == 0


def test_d19_luck_is_50_as_expected_100_at_the_best_outcome_and_0_at_the_worst() -> None:
    assert analysis.luck_score(4, 4.0, 0, 30) == 50
    assert analysis.luck_score(0, 4.0, 0, 30) == 100
    assert analysis.luck_score(30, 4.0, 0, 30) == 0
    assert 50 < analysis.luck_score(2, 4.0, 0, 30) < 100
    assert 0 < analysis.luck_score(10, 4.0, 0, 30) < 50
    assert analysis.luck_score(5, 5.0, 5, 5) == 50  # only one outcome possible


def test_d19_a_skipped_turn_has_no_scores_and_changes_nothing() -> None:
    seed, duels = bot_duels(2)
    duel = duels[0]
    word = next(t.word for t in duel.turns if t.word is not None)
    lone = evolve(
        duel,
        turns=(
            Turn(duel.players[0], None, None, duel.starts_at + duel.turn_ms),
            Turn(duel.players[1], word, score(duel.secret, word), duel.starts_at + 40_000),
        ),
    )
    a = analysis.analyse(lone, EN.lexicon(len(duel.secret)), seed)  # type: ignore[misc]
    skipped, played = a.rows
    assert skipped.word is None and skipped.skill is None and skipped.info_share is None
    assert played.before == skipped.before == len(EN.lexicon(len(duel.secret)).secrets)  # type: ignore[misc]
    assert a.to_json()["rows"][0]["skipped"] is True


def test_d19_a_hard_bot_plays_with_more_skill_than_an_easy_one() -> None:
    """The scores mean something: over many rows the hard bot's choices score higher."""
    rng = random.Random(8)
    lex = EN.lexicon(5)  # type: ignore[misc]
    totals: dict[str, list[int]] = {"easy": [], "hard": []}
    for _ in range(30):
        secret = rng.choice(lex.secrets)
        for skill in (bots.EASY, bots.HARD):
            believed = bots.vocabulary(lex, skill, rng)
            rows: list[tuple[tuple[str, ...], str]] = []
            turns = []
            for i in range(6):
                word = bots.pick(lex, skill, rows, believed, rng)
                rows.append((word, score(secret, word)))
                turns.append(Turn("a", word, rows[-1][1], 1000 * (i + 1)))
                if word == secret:
                    break
            duel = Duel("r1d1", ("a", "b"), secret, 0, 30_000, tuple(turns), ended_at=10**6)
            a = analysis.analyse(duel, lex, 1)
            totals[skill.name] += [r.skill for r in a.rows if r.skill is not None]
    mean = {k: sum(v) / len(v) for k, v in totals.items()}
    assert mean["hard"] > mean["easy"] + 10
