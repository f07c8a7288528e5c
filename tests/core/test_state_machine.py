"""Random command and time sequences against the invariants of the rules.

A hypothesis state machine plays guesses (right, wrong, invalid, stale, retried), leaves,
contacts and jumps of time (with disconnect windows running out) against one tournament, and
after every step checks `helpers.check_invariants`: lives within 0..3 and following from the
duels (R5, R6, R14, D8), eliminated players never paired, no bye twice in a row (R4), a rematch
only when unavoidable (D2, by brute force), at most 12 alternating rows per duel (R10, R11),
places by elimination round (R8, D1, D8), rating changes from the start ratings (D5, and R17
exactly when places are distinct), one winner or a shared first place when finished, and the
serialization round trip. It also checks D10: every jump of time is made both in one call and in
several, and a second copy of the tournament receives only the commands, never a bare advance.

Some seats may be house bots (D18): core plays their moves as deadlines of the tournament, so
the same checks cover them — bot moves, timeouts and disconnect windows applied in time order,
the same tournament whether time passes in one call, in many, or with guesses in between — and
the tournament ends once only house bots are left. The machine never guesses, leaves or polls
for a house bot (the shell never hears from one).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from core import errors, serialization
from core import tournament as tm
from core.events import Event, GuessPlayed
from core.timing import Timing
from tests.core.helpers import (
    NO_DISCONNECTS,
    PIDS,
    UNLISTED,
    WORDS,
    WRONG,
    check_invariants,
    start,
    wrong_guess,
)

time_steps = st.one_of(
    st.integers(0, 3_000),
    st.integers(0, 45_000),
    st.sampled_from([1, 5_999, 6_000, 29_999, 30_000, 30_001, 59_999]),
)
players = st.sampled_from(PIDS)
silent_sets = st.one_of(st.just(frozenset[str]()), st.frozensets(players, max_size=2))
KINDS = ("right", "wrong", "wrong", "short", "unlisted", "other_length", "retry")

Outcome = tuple[tm.Tournament, list[Event]] | errors.GameError


def _attempt(command: Any, *args: Any) -> Outcome:
    try:
        result: tuple[tm.Tournament, list[Event]] = command(*args)
    except errors.GameError as e:
        return e
    return result


class TournamentMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.t = start()
        self.lazy = self.t  # receives the same commands, but is never advanced on its own
        self.now = 0
        self.last: Outcome | None = None  # what the latest command returned or raised

    @initialize(
        seed=st.integers(0, 2**32 - 1),
        real_clock=st.booleans(),
        ratings=st.none() | st.lists(st.integers(800, 1400), min_size=8, max_size=8),
        house=st.just(frozenset[str]()) | st.frozensets(players, min_size=1),
    )
    def begin(
        self, seed: int, real_clock: bool, ratings: list[int] | None, house: frozenset[str]
    ) -> None:
        self.t = start(
            seed=seed,
            ratings=ratings,
            timing=Timing() if real_clock else NO_DISCONNECTS,
            house=house,
        )
        self.lazy = self.t
        self.now = 0

    # ------------------------------------------------------------------------ rules

    @rule(dt=time_steps, cuts=st.lists(st.integers(0, 100), max_size=4), silent=silent_sets)
    def tick(self, dt: int, cuts: list[int], silent: frozenset[str]) -> None:
        """Time passes, in one call and in several (D10); then the non-silent players poll."""
        target = self.now + dt
        one, one_events = tm.advance(self.t, target, WORDS)
        many, many_events = self.t, []
        for c in sorted(cuts):
            many, events = tm.advance(many, self.now + dt * c // 100, WORDS)
            many_events += events
        many, events = tm.advance(many, target, WORDS)
        many_events += events
        assert serialization.to_dict(one) == serialization.to_dict(many)
        assert one_events == many_events
        self.t, self.now = many, target
        for p in self._people():
            if p not in silent:
                self._command(tm.contact, p, self.now)

    @rule(
        dt=st.integers(0, 20_000),
        duel=st.integers(0, 3),
        who=st.sampled_from(["to_play", "to_play", "waiting", "anyone"]),
        anyone=players,
        kind=st.sampled_from(KINDS),
        shift=st.sampled_from([0, 0, 0, -1, 1]),
    )
    def guess(self, dt: int, duel: int, who: str, anyone: str, kind: str, shift: int) -> None:
        now = self.now + dt
        current, advanced = tm.advance(self.t, now, WORDS)
        duels = current.round.duels
        d = duels[duel % len(duels)]
        player = {"to_play": d.to_play, "waiting": d.opponent(d.to_play)}.get(who, anyone)
        if player not in self._people():
            return  # nobody guesses for a house bot
        own = current.round.duel_of(player) or d
        secret = own.secret
        row = len(own.turns) + shift
        word = {
            "right": secret,
            "wrong": wrong_guess(secret, row),
            "short": secret[:-1],
            "unlisted": UNLISTED[len(secret)],
            "other_length": WRONG[4 if len(secret) != 4 else 5][0],
        }.get(kind, secret)
        played = [(i, x) for i, x in enumerate(own.turns) if x.player == player and x.word]
        # A retry replays even once its guess knocked the player out or ended the tournament.
        retry = kind == "retry" and bool(played) and player in own.players
        if retry:
            row, turn = played[-1]
            word = turn.word or ()
        self._command(tm.guess, player, row, word, now)
        if retry:
            # An identical retry of a played row changes nothing and raises nothing.
            assert self.last == (current, advanced)

    @rule(
        dt=st.integers(0, 40_000),
        player=players,
        action=st.sampled_from(["contact", "contact", "contact", "leave"]),
    )
    def presence(self, dt: int, player: str, action: str) -> None:
        """A player is heard from (D9), or leaves (R20, D8, D14)."""
        if player in self._people():
            self._command(tm.contact if action == "contact" else tm.leave, player, self.now + dt)

    @rule(results=st.lists(st.sampled_from([0, 1, None]), min_size=4, max_size=4))
    def finish_round(self, results: list[int | None]) -> None:
        """Everyone polls, then the current round's open duels are played to given results, one
        guess a second in each (house bots play their own turns meanwhile)."""
        people = self._people()
        for p in people:
            self._command(tm.contact, p, self.now)
        t = self.t
        number, now = t.round.number, max(self.now, t.round.starts_at)
        wanted = {
            d.id: None if r is None else d.players[r]
            for d, r in zip(t.round.duels, results, strict=False)
        }
        while not self.t.finished and self.t.round.number == number:
            for d in self.t.round.duels:
                if d.ended_at is None and self.t.round.number == number and d.to_play in people:
                    win = d.to_play == wanted.get(d.id, d.players[0])
                    word = d.secret if win else wrong_guess(d.secret, len(d.turns))
                    self._command(tm.guess, d.to_play, len(d.turns), word, now)
            if not self.t.finished and self.t.round.number == number:
                # time passes for the bots' duels too: a person polls
                self._command(tm.contact, people[0] if people else PIDS[0], now)
            now += 1000

    # ------------------------------------------------------------------------ checks

    @invariant()
    def rules_hold(self) -> None:
        check_invariants(self.t)

    @invariant()
    def lazy_copy_agrees(self) -> None:
        caught_up, _ = tm.advance(self.lazy, self.now, WORDS)
        assert caught_up == self.t

    def teardown(self) -> None:
        t = self.t
        event(f"rounds: {min(len(t.rounds), 6)}{'+' if len(t.rounds) >= 6 else ''}")
        event("finished" if t.finished else "running")
        event(f"leavers: {sum(p.left_at is not None for p in t.players)}")
        event(f"house bots: {sum(p.house for p in t.players)}")
        bot_rows = sum(
            1
            for r in t.rounds
            for d in r.duels
            for i, x in enumerate(d.turns)
            if x.word and t.player(d.players[i % 2]).house
        )
        event(f"bot guesses: {min(bot_rows, 9)}{'+' if bot_rows >= 9 else ''}")
        guesses = sum(1 for r in t.rounds for d in r.duels for x in d.turns if x.word)
        event(f"guesses: {min(guesses, 9)}")

    # ------------------------------------------------------------------------ plumbing

    def _people(self) -> list[str]:
        return [p.id for p in self.t.players if not p.house]

    def _command(self, command: Any, player: str, *args: Any) -> None:
        now = args[-1]
        before, _ = tm.advance(self.t, now, WORDS)
        a = _attempt(command, self.t, player, *args, WORDS)
        b = _attempt(command, self.lazy, player, *args, WORDS)
        self.last = a
        self.now = now
        if isinstance(a, errors.GameError):
            assert type(a) is type(b) and str(a) == str(b)
            self.t = before  # a refused command changed nothing (R13 for invalid guesses)
            if isinstance(a, errors.InvalidGuess):
                duel = before.round.duel_of(player)
                assert duel is not None and duel.to_play == player
            return
        assert not isinstance(b, errors.GameError), b
        assert a[0] == b[0]
        for e in a[1]:
            if isinstance(e, GuessPlayed):
                if self.t.player(e.player).house:  # D18: a bot's move played on the way
                    assert e.at <= now
                else:
                    assert e.player == player and e.at == now
        self.t, self.lazy = a[0], b[0]


TournamentMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_tournament_state_machine = TournamentMachine.TestCase
