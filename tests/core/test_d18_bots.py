"""The bots' strategy (core.bots): consistency with the shared board (D3, repeated letters),
skills, thinking time, and the house bot's move as a function of stored facts (D18, D10)."""

from __future__ import annotations

import functools
import math
import os
import random
import subprocess
import sys
from statistics import NormalDist

import pytest

import wordlists
from core import bots, seeds
from core.bots import EASY, HARD, MEDIUM, Skill, pick, skill_for_rating, think_seconds, vocabulary
from core.feedback import score
from core.people import PlayerModel
from core.solver.board import Row, candidates
from core.solver.lexicon import Lexicon

W = tuple  # a word as tiles: W("abbey") == ("a", "b", "b", "e", "y")


@functools.cache
def en(length: int) -> Lexicon:
    return Lexicon.from_lists(
        wordlists.secret_words("en", length), wordlists.accepted_words("en", length)
    )


def row(secret: str, guess: str) -> Row:
    return W(guess), score(W(secret), W(guess))


def tiny(secrets: list[str], others: list[str] = ()) -> Lexicon:  # type: ignore[assignment]
    return Lexicon.build([W(w) for w in secrets], [W(w) for w in others])


def test_d3_repeated_letters_abbey_bobby_means_exactly_two_bs() -> None:
    board = [row("abbey", "bobby")]
    assert board[0][1] == "Y-G-G"
    lex = tiny(["abbey", "abbot", "ebbed", "tabby", "bibby", "obeys", "abyss"])
    left = lex.words(candidates(lex, board))
    assert W("abbey") in left
    # One B too few, or three: ruled out by the same single test.
    assert all(w.count("b") == 2 for w in left)
    assert W("obeys") not in left and W("abyss") not in left


def test_d3_present_then_absent_copy_of_one_letter() -> None:
    # KEBAB against ABBEY: the second B is present, the first A... each copy counted once.
    board = [row("abbey", "kebab")]
    assert board[0][1] == "-YGYY"
    lex = tiny(["abbey", "kebab"])
    assert lex.words(candidates(lex, board)) == [W("abbey")]


def test_d18_secret_always_stays_a_candidate_across_both_players_rows() -> None:
    rng = random.Random(7)
    for length in (4, 5, 6):
        lex = en(length)
        for _ in range(40):
            secret = rng.choice(lex.secrets)
            rows = [(g, score(secret, g)) for g in rng.sample(lex.secrets, 4)]
            left = lex.words(candidates(lex, rows))
            assert secret in left
            assert all(all(score(c, g) == m for g, m in rows) for c in left)


def _solo(lex: Lexicon, skill: Skill, secret: tuple[str, ...], rng: random.Random) -> int | None:
    """The guesses a bot needs alone, or None if six are not enough."""
    believed = vocabulary(lex, skill, rng)
    rows: list[Row] = []
    for n in range(1, 7):
        guess = pick(lex, skill, rows, believed, rng)
        rows.append((guess, score(secret, guess)))
        if guess == secret:
            return n
    return None


def test_d18_hard_bot_finds_the_secret_alone_within_six_guesses_mostly() -> None:
    rng = random.Random(3)
    lex = en(5)
    results = [_solo(lex, HARD, rng.choice(lex.secrets), rng) for _ in range(30)]
    assert sum(r is not None for r in results) >= 27


def test_d18_a_refused_word_is_never_offered_again() -> None:
    lex = tiny(["abbey", "tabby"])
    first = pick(lex, HARD, [], vocabulary(lex, HARD, random.Random(0)), random.Random(0))
    again = pick(lex, HARD, [], lex.all_secrets, random.Random(0), exclude={first})
    assert again != first


def test_d18_empty_belief_widens_to_every_known_word() -> None:
    # The secret is a word this bot never thought possible: it must still find it.
    lex = tiny(["abbey"], ["tabby", "gabby"])
    board = [row("gabby", "abbey")]
    easy_no_slips = Skill("t", 0.5, 0.4, 0.0, 0.0, 1, False, 0)
    assert pick(lex, easy_no_slips, board, lex.all_secrets, random.Random(0)) == W("gabby")


def test_d18_vocabulary_holds_every_secret_and_the_skills_rare_words() -> None:
    lex = en(6)
    rng = random.Random(2)
    for skill in (EASY, MEDIUM, HARD):
        believed = vocabulary(lex, skill, rng)
        assert believed & lex.all_secrets == lex.all_secrets
        rare = len(lex.universe) - len(lex.secrets)
        assert believed.bit_count() == len(lex.secrets) + min(skill.rare_words, rare)


def _offline_duel(a: Skill, b: Skill, rng: random.Random) -> int:
    """One duel on a shared board (R10, R12): 0 or 1 for the winner, -1 for a draw."""
    lex = en(rng.choice((4, 5, 6)))
    secret = rng.choice(lex.secrets)
    skills = (a, b)
    believed = [vocabulary(lex, s, rng) for s in skills]
    first = rng.randrange(2)
    rows: list[Row] = []
    for turn in range(12):
        p = (first + turn) % 2
        if think_seconds(skills[p], 30, rng) is None:
            continue  # timed out (R11)
        guess = pick(lex, skills[p], rows, believed[p], rng)
        rows.append((guess, score(secret, guess)))
        if guess == secret:
            return p
    return -1


@pytest.mark.parametrize(("strong", "weak", "at_least"), [(HARD, EASY, 0.6), (MEDIUM, EASY, 0.5)])
def test_d18_skill_levels_are_ordered(strong: Skill, weak: Skill, at_least: float) -> None:
    rng = random.Random(11)
    results = [_offline_duel(strong, weak, rng) for _ in range(80)]
    decided = [r for r in results if r >= 0]
    assert results.count(0) / len(decided) >= at_least


def test_d18_think_time_scales_with_the_turn_and_slower_skills_think_longer() -> None:
    rng = random.Random(5)
    for turn_s in (1.0, 30.0):
        for skill in (EASY, MEDIUM, HARD):
            times = [think_seconds(skill, turn_s, rng) for _ in range(400)]
            played = [t for t in times if t is not None]
            assert all(bots.THINK_MIN * turn_s <= t <= bots.THINK_MAX * turn_s for t in played)
    easy = [t for t in (think_seconds(EASY, 30, rng) for _ in range(400)) if t is not None]
    hard = [t for t in (think_seconds(HARD, 30, rng) for _ in range(400)) if t is not None]
    assert sum(easy) / len(easy) > 1.5 * sum(hard) / len(hard)
    assert all(think_seconds(HARD, 30, rng) is not None for _ in range(200))  # never times out


def test_d18_skill_grows_with_rating() -> None:
    order = [EASY, MEDIUM, HARD]
    levels = [order.index(skill_for_rating(r)) for r in range(400, 2400, 10)]
    assert levels == sorted(levels)
    assert levels[0] == 0 and levels[-1] == 2


def test_d18_house_bots_think_like_the_modelled_people() -> None:
    """Log-normal, median half the turn; a turn whose thinking reaches its end is let go (R11),
    as often as for a modelled person (core.people); the others are played a little sooner."""
    model = PlayerModel()
    turn = 30_000
    for rating in (800, 1000, 1300):
        times = [
            bots.think_ms(99, f"r{i % 9 + 1}d{i % 4 + 1}", i, rating, turn) for i in range(4000)
        ]
        played = [t for t in times if t is not None]
        assert all(bots.THINK_MIN * turn <= t < turn for t in played)
        skipped = 1 - len(played) / len(times)
        people = 1 - NormalDist().cdf(
            math.log(turn / 1000 / model.think_median_s) / model.think_sigma
        )
        assert abs(skipped - people) < 0.012
        median = sorted(played)[len(played) // 2]
        assert abs(median / 1000 - bots.HOUSE_PACE * model.think_median_s) < 0.6


@pytest.mark.parametrize("rating", [700, 1000, 1200])
def test_d18_a_house_bot_finds_the_secret_as_often_as_a_person_of_its_rating(rating: int) -> None:
    """With few words left, a house bot plays one that could be the secret with the chance
    BOOST × a modelled person's: never more, whichever word the secret is."""
    lex = en(5)
    board = [row("abbey", "tabby"), row("abbey", "gabby")]
    left = lex.words(candidates(lex, board))
    aim = bots.house_aim(rating, len(board))
    assert len(left) * aim < 1  # the paced range: the bot is not at full strength here
    n = 1500
    hits = sum(bots.house_word(rating, f"r1d{i}", 2, rating, board, lex) in left for i in range(n))
    assert abs(hits / n - min(1.0, aim * len(left))) < 4 * math.sqrt(aim * len(left) / n) + 0.01


_PROBE = """
import sys
from core import bots, seeds
from core.solver.lexicon import Lexicon
lex = Lexicon.build([tuple(w) for w in ("abbey", "tabby", "gabby", "kebab", "babes")], [])
print(bots.think_ms(12345, "r2d3", 4, 1000, 30000), seeds.stream(1, "x").random(),
      bots.house_word(12345, "r2d3", 1, 1000, [(tuple("kebab"), "-YGYY")], lex))
"""


def test_d10_house_moves_are_the_same_in_every_process() -> None:
    """String hashing is salted per process; a bot's move must not depend on it."""
    answers = set()
    for salt in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": salt}
        done = subprocess.run(
            [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, check=True
        )
        answers.add(done.stdout)
    assert len(answers) == 1
    think, draw, word = answers.pop().split(" ", 2)
    assert float(draw) == seeds.stream(1, "x").random()
    assert int(think) == bots.think_ms(12345, "r2d3", 4, 1000, 30000)
    lex = tiny(["abbey", "tabby", "gabby", "kebab", "babes"])
    assert word.strip() == repr(
        bots.house_word(12345, "r2d3", 1, 1000, [row("abbey", "kebab")], lex)
    )
