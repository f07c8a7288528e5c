"""The bot's brain: consistency with the shared board (D3, repeated letters), skills, timing."""

from __future__ import annotations

import random

import pytest

import wordlists
from api.bots.strategy import (
    EASY,
    HARD,
    MEDIUM,
    DuelBrain,
    Lexicon,
    Skill,
    consistent,
    filter_candidates,
    skill_for_rating,
    think_seconds,
)
from core.feedback import score

W = tuple  # a word as tiles: W("abbey") == ("a", "b", "b", "e", "y")


def en(length: int) -> Lexicon:
    return Lexicon.from_lists(
        wordlists.secret_words("en", length), wordlists.accepted_words("en", length)
    )


def row(secret: str, guess: str) -> tuple[tuple[str, ...], str]:
    return W(guess), score(W(secret), W(guess))


def test_d3_repeated_letters_abbey_bobby_means_exactly_two_bs() -> None:
    board = [row("abbey", "bobby")]
    assert board[0][1] == "Y-G-G"
    words = [W(w) for w in ("abbey", "abbot", "ebbed", "tabby", "bibby", "obeys", "abyss")]
    left = filter_candidates(words, board)
    assert W("abbey") in left
    # One B too few, or three: ruled out by the same single test.
    assert all(w.count("b") == 2 for w in left)
    assert W("obeys") not in left and W("abyss") not in left


def test_d3_present_then_absent_copy_of_one_letter() -> None:
    # KEBAB against ABBEY: the second B is present, the first A... each copy counted once.
    board = [row("abbey", "kebab")]
    assert board[0][1] == "-YGYY"
    assert consistent(W("abbey"), board)
    assert not consistent(W("kebab"), board)


def test_secret_always_stays_a_candidate_across_both_players_rows() -> None:
    rng = random.Random(7)
    for length in (4, 5, 6):
        lex = en(length)
        for _ in range(40):
            secret = rng.choice(lex.secrets)
            rows = [(g, score(secret, g)) for g in rng.sample(lex.secrets, 4)]
            brain = DuelBrain(lex, HARD, random.Random(1))
            brain.observe(rows[:2])  # e.g. the opponent's row, then ours
            brain.observe(rows)  # rows only ever grow
            assert secret in brain.candidates
            assert all(consistent(c, rows) for c in brain.candidates)


def test_hard_bot_finds_the_secret_alone_within_six_guesses_mostly() -> None:
    rng = random.Random(3)
    lex = en(5)
    solved = 0
    for _ in range(30):
        secret = rng.choice(lex.secrets)
        brain = DuelBrain(lex, HARD, rng)
        rows: list[tuple[tuple[str, ...], str]] = []
        for _ in range(6):
            brain.observe(rows)
            guess = brain.choose()
            rows.append((guess, score(secret, guess)))
            if guess == secret:
                solved += 1
                break
    assert solved >= 27


def test_rejected_word_is_never_offered_again() -> None:
    lex = Lexicon((W("abbey"), W("tabby")), ())
    brain = DuelBrain(lex, HARD, random.Random(0))
    first = brain.choose()
    brain.reject(first)
    assert brain.choose() != first


def test_empty_belief_widens_to_every_valid_word() -> None:
    # The secret is a word this bot never thought possible: it must still find it.
    lex = Lexicon((W("abbey"),), (W("tabby"), W("gabby")))
    brain = DuelBrain(lex, EASY, random.Random(0))
    brain.observe([row("gabby", "abbey")])
    assert brain.candidates
    assert all(consistent(c, [row("gabby", "abbey")]) for c in brain.candidates)


def _offline_duel(a: Skill, b: Skill, lexicons: dict[int, Lexicon], rng: random.Random) -> int:
    """One duel on a shared board (R10, R12): 0 or 1 for the winner, -1 for a draw."""
    length = rng.choice((4, 5, 6))
    secret = rng.choice(lexicons[length].secrets)
    brains = [DuelBrain(lexicons[length], a, rng), DuelBrain(lexicons[length], b, rng)]
    first = rng.randrange(2)
    rows: list[tuple[tuple[str, ...], str]] = []
    for turn in range(12):
        p = (first + turn) % 2
        if think_seconds(brains[p].skill, 30, rng) is None:
            continue  # timed out (R11)
        brains[p].observe(rows)
        guess = brains[p].choose()
        rows.append((guess, score(secret, guess)))
        if guess == secret:
            return p
    return -1


@pytest.mark.parametrize(("strong", "weak", "at_least"), [(HARD, EASY, 0.6), (MEDIUM, EASY, 0.5)])
def test_skill_levels_are_ordered(strong: Skill, weak: Skill, at_least: float) -> None:
    lexicons = {n: en(n) for n in (4, 5, 6)}
    rng = random.Random(11)
    results = [_offline_duel(strong, weak, lexicons, rng) for _ in range(80)]
    decided = [r for r in results if r >= 0]
    assert results.count(0) / len(decided) >= at_least


def test_think_time_scales_with_the_turn_and_slower_skills_think_longer() -> None:
    rng = random.Random(5)
    for turn_s in (1.0, 30.0):
        for skill in (EASY, MEDIUM, HARD):
            times = [think_seconds(skill, turn_s, rng) for _ in range(400)]
            played = [t for t in times if t is not None]
            assert all(0.08 * turn_s <= t <= 0.9 * turn_s for t in played)
    easy = [t for t in (think_seconds(EASY, 30, rng) for _ in range(400)) if t is not None]
    hard = [t for t in (think_seconds(HARD, 30, rng) for _ in range(400)) if t is not None]
    assert sum(easy) / len(easy) > 1.5 * sum(hard) / len(hard)
    assert all(think_seconds(HARD, 30, rng) is not None for _ in range(200))  # never times out


def test_skill_follows_rating() -> None:
    assert skill_for_rating(800) is EASY
    assert skill_for_rating(1000) is MEDIUM
    assert skill_for_rating(1300) is HARD
