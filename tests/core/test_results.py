"""A player's result of one tournament (R5, R8, R12, R14, R16, R20, D8) and the statistics they
add up to, pure."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from core import tournament as tm
from core.results import Result, result_of
from core.stats import RATING_POINTS, Stats, add
from core.views import summary_view
from tests.core.helpers import NO_DISCONNECTS, PIDS, WORDS, start, wrong_guess

Plan = dict[str, tuple[str | None, int]]  # duel id → (winner or None for a draw, winning turn)


def play_round_as(t: tm.Tournament, plan: Plan, now: int) -> tuple[tm.Tournament, int]:
    """Every duel of the round as planned: the winner finds the word on their k-th turn (the
    others guess wrong); a draw uses all 12 rows (R14)."""
    number = t.round.number
    now = max(now, t.round.starts_at)
    while t.round.number == number and not t.finished:
        for d in [d for d in t.round.duels if d.ended_at is None]:
            winner, k = plan[d.id]
            p = d.to_play
            right = p == winner and d.turns_used(p) + 1 == k
            word = d.secret if right else wrong_guess(d.secret, len(d.turns))
            t, _ = tm.guess(t, p, len(d.turns), word, now, WORDS)
            if t.round.number != number or t.finished:
                break
        now += 1000
    return t, now


def test_r5_r8_r14_a_result_counts_every_duel_the_player_played() -> None:
    rng = random.Random(4)
    t = start(seed=9, timing=NO_DISCONNECTS)
    expected = {pid: {"won": 0, "drawn": 0, "lost": 0, "wins_in": []} for pid in PIDS}
    now = 0
    while not t.finished:
        plan: Plan = {}
        for d in t.round.duels:
            outcome = rng.choice(["a", "b", "draw"])
            k = rng.randint(1, 6)
            a, b = d.players
            winner = {"a": a, "b": b, "draw": None}[outcome]
            plan[d.id] = (winner, k)
            if winner is None:
                expected[a]["drawn"] += 1  # type: ignore[operator]
                expected[b]["drawn"] += 1  # type: ignore[operator]
            else:
                loser = b if winner == a else a
                expected[winner]["won"] += 1  # type: ignore[operator]
                expected[winner]["wins_in"].append(k)  # type: ignore[union-attr]
                expected[loser]["lost"] += 1  # type: ignore[operator]
        t, now = play_round_as(t, plan, now)
    for p in t.players:
        r = result_of(t, p.id, 1000 + int(p.id[1:]))
        want = expected[p.id]
        assert (r.won, r.drawn, r.lost) == (want["won"], want["drawn"], want["lost"]), p.id
        assert r.wins_in == tuple(want["wins_in"]), p.id  # type: ignore[arg-type]
        assert r.place == p.place and r.rounds == p.out_round
        assert r.rating_before == 1000 + int(p.id[1:])
        assert r.rating_change == p.rating_change  # R16
        assert r.finished_at == t.rounds[r.rounds - 1].ended_at  # R8: when the round ended
        assert r.started_at == t.created_at and r.language == "en" and r.tournament_id == "t1"
        assert not r.left
    assert sum(result_of(t, p.id, 1000).place == 1 for p in t.players) >= 1


def test_r20_d8_a_leaver_loses_the_duel_and_the_winner_wins_without_a_guess() -> None:
    t = start(seed=3)
    duel = t.round.duels[0]
    leaver, stayer = duel.players
    t, _ = tm.leave(t, leaver, t.round.starts_at, WORDS)
    while not t.finished:
        plan = {d.id: (min(d.players), 1) for d in t.round.duels}
        t, _ = play_round_as(t, plan, t.round.starts_at)
    gone = result_of(t, leaver, 1000)
    assert gone.left and (gone.won, gone.drawn, gone.lost) == (0, 0, 1) and gone.rounds == 1
    kept = result_of(t, stayer, 1000)
    assert kept.won >= 1 and len(kept.wins_in) == kept.won - 1  # the forfeit is no guess


def test_a_result_needs_a_fixed_place() -> None:
    t = start()
    with pytest.raises(ValueError):
        result_of(t, "p0", 1000)


def test_d4_the_summary_exists_only_once_finished_and_holds_every_secret() -> None:
    t = start(seed=5)
    with pytest.raises(ValueError):
        summary_view(t)
    while not t.finished:
        t, _ = play_round_as(t, {d.id: (min(d.players), 2) for d in t.round.duels}, 0)
    view = summary_view(t)
    assert [p["place"] for p in view["players"]] == sorted(p.place or 0 for p in t.players)
    duels = [d for r in view["rounds"] for d in r["duels"]]
    assert len(duels) == sum(len(r.duels) for r in t.rounds)
    assert all(d["secret"] and d["result"] is not None for d in duels)
    assert view["rounds_played"] == len(t.rounds) == len(view["rounds"])


# ---------------------------------------------------------------------------- statistics


def result(place: int, before: int, after: int, at: int, **fields: object) -> Result:
    base = Result(
        tournament_id=f"t{at}",
        language="en",
        started_at=at - 600_000,
        finished_at=at,
        place=place,
        rating_before=before,
        rating_after=after,
        rounds=5,
        won=2,
        drawn=1,
        lost=3,
        wins_in=(2, 4),
        left=False,
    )
    return replace(base, **fields)  # type: ignore[arg-type]


def test_statistics_add_up_results_with_streaks_and_a_guess_distribution() -> None:
    places = [1, 1, 3, 1, 1, 1, 8, 2]
    stats: Stats | None = None
    rating = 1000
    for i, place in enumerate(places):
        at = (i + 1) * 1_000_000
        stats = add(stats, result(place, rating, rating + 10 - place, at), "Zoë", False, at + 5)
        rating += 10 - place
    assert stats is not None
    assert (stats.played, stats.wins, stats.podiums) == (8, 5, 7)
    assert stats.average_place == sum(places) / 8
    assert (stats.streak, stats.best_streak) == (0, 3)
    assert (stats.duels_won, stats.duels_drawn, stats.duels_lost) == (16, 8, 24)
    assert stats.guesses == (0, 8, 0, 8, 0, 0)  # won on the 2nd and the 4th turn each time
    assert stats.rating == rating and stats.nickname == "Zoë"
    # The chart: the rating before the first result, then after each one.
    assert stats.points[0] == (1_000_000 - 600_000, 1000)
    assert [r for _, r in stats.points[1:]][-1] == rating and len(stats.points) == 9
    assert stats.languages == {"en": 8_000_000} and stats.last_played == 8_000_000
    assert stats.recorded_at == 8_000_005 and stats.latest_language == "en"
    assert stats.before is not None and stats.before.rating == rating - 8
    assert stats.before.recorded_at == 7_000_005 and stats.before.language_played == 7_000_000


def test_the_rating_chart_keeps_the_latest_points_and_never_goes_back_in_time() -> None:
    stats: Stats | None = None
    for i in range(RATING_POINTS + 20):
        stats = add(stats, result(4, 1000 + i, 1001 + i, 10_000 * (i + 1)), "A", False, i)
    assert stats is not None
    assert len(stats.points) == RATING_POINTS
    assert stats.points[-1] == (10_000 * (RATING_POINTS + 20), 1000 + RATING_POINTS + 20)
    # A result recorded later whose round ended earlier (the sweep was late) keeps time order.
    late = add(stats, result(4, 1070, 1071, 5), "A", False, 99)
    assert late.points[-1] == (stats.points[-1][0], 1071)
    assert late.last_played == stats.last_played


def test_a_first_result_starts_the_statistics_and_languages_are_kept_apart() -> None:
    first = add(None, result(2, 1000, 1018, 100, language="de"), "B", True, 150)
    assert first.bot and first.before is not None
    assert (first.before.rating, first.before.recorded_at, first.before.language_played) == (
        1000,
        None,
        None,
    )
    second = add(first, result(5, 1018, 1014, 300, language="en"), "B", True, 350)
    assert second.languages == {"de": 100, "en": 300}
    assert second.before is not None and second.before.language_played is None
