"""D18, D10: house bot seats, whose moves are deadlines of their tournament.

A house bot's move has a time that `next_deadline` knows and that whoever advances the
tournament plays; it never reads the secret; bots never disconnect; a tournament ends as soon as
only house bots are left in it."""

from __future__ import annotations

import json
from collections.abc import Sequence

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core import bots, house, serialization
from core import tournament as tm
from core.duel import Duel, Turn, Word
from core.events import GuessPlayed, TournamentFinished
from core.evolve import evolve
from core.feedback import score
from core.outages import Outage, absorb
from core.solver.board import candidates
from core.timing import Timing
from tests.core.helpers import PIDS, check_invariants, real_words, start

EN = real_words("en")
REAL = Timing()
PERSON = PIDS[0]
SEVEN = PIDS[1:]
RATINGS = [1000, 800, 900, 1000, 1100, 1200, 1300, 1400]  # every skill among the bots


def with_duel(t: tm.Tournament, duel: Duel) -> tm.Tournament:
    rnd = t.round
    duels = tuple(duel if d.id == duel.id else d for d in rnd.duels)
    return evolve(t, rounds=(*t.rounds[:-1], evolve(rnd, duels=duels)))


def moves(t: tm.Tournament) -> dict[str, int]:
    """The current round's bot move times, by duel."""
    bots_ = t.house_bots()
    found = {d.id: house.move_at(t.seed, d, bots_) for d in t.round.duels}
    return {k: v for k, v in found.items() if v is not None}


def test_d18_a_bots_move_is_the_next_deadline_and_is_played_at_that_time() -> None:
    t = start(seed=5, ratings=RATINGS, timing=REAL, words=EN, house=SEVEN)
    due = moves(t)
    assert due, "some bot plays round 1's first turn"
    windows = [t.player(PERSON).last_contact + REAL.reconnect_ms]  # bots have none
    deadlines = [d.deadline for d in t.round.duels if d.deadline is not None]
    assert t.next_deadline() == min([*due.values(), *deadlines, *windows])
    duel_id, at = min(due.items(), key=lambda kv: kv[1])
    assert t.round.starts_at < at < t.round.starts_at + REAL.turn_ms  # thinks, in its turn

    early, events = tm.advance(t, at - 1, EN)
    assert not any(d.turns for d in early.round.duels) and not events
    played, events = tm.advance(t, at, EN)
    duel = next(d for d in played.round.duels if d.id == duel_id)
    (turn,) = duel.turns
    assert turn.player == duel.players[0] and turn.at == at
    assert turn.word is not None and EN.accepts(turn.word)
    assert turn.marks == score(duel.secret, turn.word)
    assert GuessPlayed(duel_id, turn.player, 0, turn.word, turn.marks, at) in events
    # once played, the bot's next deadline is the opponent's (a person's timeout or a bot's move)
    assert played.next_deadline() is not None and played.next_deadline() > at


def test_d18_a_bot_that_lets_the_clock_run_out_has_no_move_and_skips_at_the_deadline() -> None:
    easy = [800] * 8
    for seed in range(200):
        t = start(seed=seed, ratings=easy, timing=REAL, words=EN, house=SEVEN)
        lazy = [
            d
            for d in t.round.duels
            if t.player(d.players[0]).house
            and bots.think_ms(t.seed, d.id, 0, 800, d.turn_ms) is None
        ]
        if lazy:
            break
    else:
        raise AssertionError("no easy bot let a first turn run out in 200 tournaments")
    duel = lazy[0]
    assert duel.id not in moves(t)
    t, _ = tm.advance(t, duel.deadline or 0, EN)
    (skip,) = next(d for d in t.round.duels if d.id == duel.id).turns
    assert skip.word is None and skip.player == duel.players[0]


def _poll_until_finished(t: tm.Tournament, every_ms: int) -> tm.Tournament:
    now = 0
    while not t.finished:
        now += every_ms
        t, _ = tm.contact(t, PERSON, now, EN)
        check_invariants(t)
    return t


def test_d18_house_bots_never_disconnect_and_only_bots_left_end_the_tournament() -> None:
    """The person polls but never guesses: their turns time out (R11), they lose their lives,
    and the round that knocks them out ends the tournament (the bots share first place)."""
    t = start(seed=8, ratings=RATINGS, timing=REAL, words=EN, house=SEVEN)
    t = _poll_until_finished(t, 5_000)
    person = t.player(PERSON)
    assert person.lives == 0 and person.left_at is None
    last = t.rounds[-1]
    assert person.out_round == last.number and t.finished_at == last.ended_at
    assert t.finished_at > REAL.reconnect_ms  # long past any window a bot could have had
    for p in t.players:
        if p.house:
            assert p.left_at is None and p.last_contact == t.created_at  # never heard from
    alive = [p for p in t.players if p.lives > 0]
    assert len(alive) >= 2 and all(p.place == 1 for p in alive)
    check_invariants(t)  # places (D1) and rating changes (D5) included


def test_d18_a_person_who_leaves_during_the_intro_leaves_bots_that_end_with_round_1() -> None:
    t = start(seed=3, ratings=RATINGS, timing=REAL, words=EN, house=SEVEN)
    t, _ = tm.leave(t, PERSON, 1_000, EN)
    t, events = tm.advance(t, 10**9, EN)
    assert t.finished and len(t.rounds) == 1
    assert TournamentFinished(t.finished_at or 0, None) in events
    # the bots' own duels were played to their end, by the bots
    for d in t.round.duels:
        if PERSON not in d.players:
            assert d.ended_at is not None and not d.forfeit
            assert all(x.word is None or EN.accepts(x.word) for x in d.turns)
    check_invariants(t)


def test_d18_duels_of_two_bots_play_themselves_out() -> None:
    t = start(seed=11, ratings=RATINGS, timing=REAL, words=EN, house=PIDS)
    t, _ = tm.advance(t, 10**9, EN)
    assert t.finished and len(t.rounds) == 1  # only bots: nobody's place depends on more
    for d in t.round.duels:
        assert d.ended_at is not None
        guesses = [x for x in d.turns if x.word is not None]
        assert guesses, d
        if d.winner is not None:
            assert d.turns[-1].word == d.secret and d.turns[-1].player == d.winner
    check_invariants(t)


def _drive(t: tm.Tournament, poll_ms: int | None, person_word: Word) -> tm.Tournament:
    """The person plays `person_word`-like misses 4 s into each of their turns; bots play their
    own. `poll_ms`: the tournament is also advanced that often, as polls do (None: time only
    jumps to deadlines, as the sweep does)."""
    now = 0
    while not t.finished:
        d = t.round.duel_of(PERSON)
        mine = d is not None and d.ended_at is None and d.to_play == PERSON
        guess_at = d.turn_started_at + 4_000 if mine and d is not None else None
        due = [x for x in (t.next_deadline(), guess_at) if x is not None]
        target = min(due)
        if poll_ms is not None:
            target = min(target, now + poll_ms)
        now = max(now, target)
        if guess_at is not None and now == guess_at and d is not None:
            word = person_word[: len(d.secret)] + ("s",) * (len(d.secret) - len(person_word))
            word = word if EN.accepts(word) and word != d.secret else d.secret
            t, _ = tm.guess(t, PERSON, len(d.turns), word, now, EN, d.id)
        else:  # a poll or the sweep
            t, _ = tm.advance(t, now, EN)
    return t


def test_d10_bots_give_the_same_tournament_by_sweeps_by_polls_or_in_one_call() -> None:
    word = tuple("tares")
    base = start(seed=21, ratings=RATINGS, timing=Timing(reconnect_ms=10**12), words=EN)
    base = evolve(
        base, players=tuple(evolve(p, house=p.id in SEVEN, bot=p.id in SEVEN) for p in base.players)
    )
    swept = _drive(base, None, word)
    polled = _drive(base, 997, word)
    assert serialization.to_dict(swept) == serialization.to_dict(polled)
    assert any(x.word for r in swept.rounds for d in r.duels for x in d.turns if x.player == PERSON)
    # Only bots: the whole tournament in one call, or a second at a time.
    bots_only = evolve(base, players=tuple(evolve(p, house=True, bot=True) for p in base.players))
    once, _ = tm.advance(bots_only, 10**8, EN)
    stepped = bots_only
    for now in range(0, (once.finished_at or 0) + 1_000, 1_000):
        stepped, _ = tm.advance(stepped, now, EN)
    assert stepped == once


def _board_turns(duel: Duel, board: Sequence[tuple[Word, str]]) -> tuple[Turn, ...]:
    return tuple(
        Turn(duel.players[i % 2], w, m, duel.starts_at + 2_000 * (i + 1))
        for i, (w, m) in enumerate(board)
    )


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    length=st.sampled_from((4, 5, 6)),
    rating=st.sampled_from(RATINGS),
    data=st.data(),
)
def test_d18_a_bot_never_reads_the_secret(
    seed: int, length: int, rating: int, data: st.DataObject
) -> None:
    """The same public board (D4) with two different secrets that are both consistent with it
    gives the same move: the same time and the same word."""
    lex = EN.lexicon(length)  # type: ignore[misc]
    secret = data.draw(st.sampled_from(lex.secrets), "secret")
    guesses = data.draw(st.lists(st.sampled_from(lex.secrets), max_size=5, unique=True), "board")
    assume(secret not in guesses)
    board = [(g, score(secret, g)) for g in guesses]
    others = [w for w in lex.words(candidates(lex, board)) if w != secret]
    assume(others)
    other = data.draw(st.sampled_from(others), "other secret")
    t = start(seed=seed, ratings=[rating] * 8, timing=REAL, words=EN, house=PIDS)
    base = t.round.duels[0]
    played = []
    for s in (secret, other):
        duel = evolve(base, secret=s, turns=_board_turns(base, board))
        at = house.move_at(t.seed, duel, t.house_bots())
        after, _ = tm.advance(with_duel(t, duel), at or (duel.deadline or 0), EN)
        new = next(d for d in after.round.duels if d.id == duel.id).turns[len(board)]
        played.append((at, new.player, new.word, new.at))
    assert played[0] == played[1]


def test_d18_a_bots_move_waits_out_a_storage_outage_with_its_turn() -> None:
    t = start(seed=5, ratings=RATINGS, timing=REAL, words=EN, house=SEVEN)
    duel_id, at = min(moves(t).items(), key=lambda kv: kv[1])
    outage = Outage(at - 1_000, at + 20_000)
    paused, _ = absorb(t, outage, heard_at=outage.start, words=EN)
    assert moves(paused)[duel_id] == at + outage.length
    later, _ = tm.advance(paused, at + outage.length, EN)
    (turn,) = next(d for d in later.round.duels if d.id == duel_id).turns
    assert turn.at == at + outage.length


# A tournament stored before house bots existed (format 1: bots as 0/1, a group as a tail).
OLD_ITEM = json.loads(
    '{"f": 1, "id": "old", "lang": "en", "seed": 2797435749927855575, "tm": [30000, 6000, '
    '1000000000000], "at": 1000, "end": null, "p": [["p0", "N0", 1000, 0, 3, null, null, null, '
    'null, 0, "g1"], ["p1", "N1", 1010, 0, 3, null, null, null, null, 0, "g1"], ["p2", "N2", '
    '1020, 0, 3, null, null, null, null, 0], ["p3", "N3", 1030, 0, 3, null, null, null, null, 0],'
    ' ["p4", "N4", 1040, 0, 3, null, null, null, null, 0], ["p5", "N5", 1050, 0, 3, null, null, '
    'null, null, 0], ["p6", "N6", 1060, 0, 3, null, null, null, null, 1], ["p7", "N7", 1070, 0, '
    '3, null, null, null, null, 1]], "r": [[1, 0, 6000, null, null, [["r1d1", [1, 0], "aaaaec", '
    'null, null, 0, [[1, "rrrrrr", "------", 7000]]], ["r1d2", [2, 3], "aaca", null, null, 0, '
    '[]], ["r1d3", [4, 6], "aaaadf", null, null, 0, []], ["r1d4", [7, 5], "aaadf", null, null, '
    "0, []]]]]}"
)


def test_d18_stored_tournaments_keep_house_seats_and_older_items_still_load() -> None:
    old = serialization.from_dict(OLD_ITEM)
    assert [p.bot for p in old.players] == [False] * 6 + [True] * 2
    assert not any(p.house for p in old.players) and not old.house_bots()
    assert old.player("p0").group == "g1"
    assert serialization.to_dict(old) == OLD_ITEM  # unchanged for tournaments without house bots
    t = start(seed=2, words=EN, house=("p3", "p5"))
    back = serialization.from_dict(json.loads(json.dumps(serialization.to_dict(t))))
    assert back == t
    assert {p.id for p in back.players if p.house} == {"p3", "p5"}
    assert all(p.bot for p in back.players if p.house)
