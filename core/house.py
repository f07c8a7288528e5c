"""D18, D10: a house bot's move is one more deadline of its tournament.

A house bot seat plays from the stored tournament alone: when its turn starts, its thinking time
is drawn from (the tournament's seed, the duel, the row), so its move has a time that
`Tournament.next_deadline` knows, and whoever advances the tournament past that time plays it,
with the word drawn from the same seed and the public board (core.bots.house_word). A bot that
"decides" to let its turn time out has no move time: the turn's own deadline skips it (R11).

Nothing here reads the secret: `move_at` and `word` see only the seed, the duel's id, its
timers, the board and the bot's rating, which is why a property test can show that two duels
with different secrets and the same board get the same move.
"""

from __future__ import annotations

from collections.abc import Mapping

from core import bots
from core.duel import Duel, Word
from core.solver.board import board_of
from core.words import WordSource


def move_at(seed: int, duel: Duel, house: Mapping[str, int]) -> int | None:
    """When the house bot whose turn it is in `duel` plays; None when it is not a house bot's
    turn, or the bot lets the turn time out. `house`: every house bot's id and rating."""
    if duel.ended_at is not None:
        return None
    rating = house.get(duel.players[len(duel.turns) % 2])
    if rating is None:
        return None
    think = bots.think_ms(seed, duel.id, len(duel.turns), rating, duel.turn_ms)
    if think is None:
        return None
    return duel.turn_started_at + duel.held_ms + think


def word(seed: int, duel: Duel, rating: int, words: WordSource) -> Word:
    """The word the house bot whose turn it is plays now (only computed when it plays)."""
    if words.lexicon is None:
        raise ValueError("house bots need the word source's lexicon (core.words.WordSource)")
    lexicon = words.lexicon(len(duel.secret))
    return bots.house_word(seed, duel.id, len(duel.turns), rating, board_of(duel), lexicon)
