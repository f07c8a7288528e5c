"""R10–R14, D3, D4: one duel on a shared board.

Times are integers in milliseconds. A duel's state at time t depends only on its stored turns
and t (D10): `expire` appends the skipped turns whose deadlines have passed.
"""

from __future__ import annotations

from dataclasses import dataclass

from core import errors
from core.feedback import score
from core.timing import MAX_ROWS

Word = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Turn:
    """One used turn: a guess with its marks, or a skip (R11) when `word` is None."""

    player: str
    word: Word | None
    marks: str | None
    at: int

    @property
    def skipped(self) -> bool:
        return self.word is None


@dataclass(frozen=True, slots=True)
class Duel:
    id: str
    players: tuple[str, str]  # players[0] takes the first turn (R10: drawn at random)
    secret: Word
    starts_at: int
    turn_ms: int
    turns: tuple[Turn, ...] = ()
    ended_at: int | None = None
    winner: str | None = None  # None once ended means a draw (R14)
    forfeit: bool = False  # D8: the loser left
    # Storage outage time added to the current turn (core/outages.py): a turn that nobody
    # could play is not a skip. Back to 0 with the next turn.
    held_ms: int = 0

    @property
    def over(self) -> bool:
        return self.ended_at is not None

    @property
    def draw(self) -> bool:
        return self.ended_at is not None and self.winner is None

    @property
    def to_play(self) -> str:
        return self.players[len(self.turns) % 2]

    @property
    def turn_started_at(self) -> int:
        return self.turns[-1].at if self.turns else self.starts_at

    @property
    def deadline(self) -> int | None:
        """When the current turn times out, or None once the duel is over."""
        if self.ended_at is not None:
            return None
        return self.turn_started_at + self.turn_ms + self.held_ms

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.opponent(self.winner)

    def opponent(self, player: str) -> str:
        a, b = self.players
        return b if player == a else a

    def turns_used(self, player: str) -> int:
        return sum(1 for t in self.turns if t.player == player)


def expire(duel: Duel, now: int) -> Duel:
    """Skip every turn whose deadline is at or before `now` (R11); a full board is a draw (R14)."""
    if duel.ended_at is not None:
        return duel
    deadline = duel.turn_started_at + duel.turn_ms + duel.held_ms
    if deadline > now:
        return duel
    turns = list(duel.turns)
    ended_at = None
    while deadline <= now:
        turns.append(Turn(duel.players[len(turns) % 2], None, None, deadline))
        if len(turns) == MAX_ROWS:
            ended_at = deadline
            break
        deadline += duel.turn_ms
    return Duel(
        duel.id, duel.players, duel.secret, duel.starts_at, duel.turn_ms, tuple(turns), ended_at
    )


def play(duel: Duel, player: str, word: Word, now: int) -> Duel:
    """Play `word` for `player` at `now`. The duel must already be expired to `now`.

    Validity against the word list (R13) is checked by the caller, which knows the language.
    """
    if duel.ended_at is not None:
        raise errors.DuelOver(duel.id)
    if now < duel.starts_at:
        raise errors.IntroInProgress(duel.starts_at)
    turns = duel.turns
    to_play = duel.players[len(turns) % 2]
    if to_play != player:
        raise errors.NotYourTurn(player, to_play)
    secret = duel.secret
    if len(word) != len(secret):
        raise errors.WrongLength(len(secret), len(word))
    turns = (*turns, Turn(player, word, score(secret, word), now))
    ended_at: int | None
    winner: str | None
    if word == secret:
        ended_at, winner = now, player
    elif len(turns) == MAX_ROWS:
        ended_at, winner = now, None  # R14: both players used all their turns
    else:
        ended_at = winner = None
    return Duel(
        duel.id, duel.players, secret, duel.starts_at, duel.turn_ms, turns, ended_at, winner
    )


def forfeit(duel: Duel, leaver: str, now: int) -> Duel:
    """D8: the leaver's opponent wins at once."""
    if duel.ended_at is not None:
        return duel
    return Duel(
        duel.id,
        duel.players,
        duel.secret,
        duel.starts_at,
        duel.turn_ms,
        duel.turns,
        now,
        duel.opponent(leaver),
        True,
        duel.held_ms,
    )
