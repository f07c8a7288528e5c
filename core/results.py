"""R5, R8, R12, R14, R16, R20, D1, D8: what one tournament was for one player, once their place
is fixed: a line of their history, and what their statistics add up.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.tournament_state import Tournament


@dataclass(frozen=True, slots=True)
class Result:
    """One player's tournament, as it stands once their place is fixed (it never changes after).

    `finished_at` is when the place was fixed: the end of the round that put them out (R8), or
    of the last round for the winner. `rating_before` is the player's rating just before this
    place moved it (R16), which is the start rating of D5 unless another tournament of theirs
    moved it meanwhile.
    """

    tournament_id: str
    language: str
    started_at: int  # when the lobby filled and the tournament started (D7)
    finished_at: int
    place: int
    rating_before: int
    rating_after: int
    rounds: int  # rounds played: up to and including the one that put them out (byes count)
    won: int  # duels won, by finding the word (R12) or because the opponent left (D8)
    drawn: int  # R14
    lost: int  # R5, and the duel lost by leaving (R20)
    # For each duel won by finding the word: the winner's turns used, 1 to 6 (a skipped turn
    # counts, R11): the guess distribution of the statistics.
    wins_in: tuple[int, ...]
    left: bool  # left the tournament or dropped for good (R20, R21)

    @property
    def rating_change(self) -> int:
        return self.rating_after - self.rating_before


def result_of(t: Tournament, player_id: str, rating_before: int) -> Result:
    """`player_id`'s result in `t`, whose place is fixed (R8), starting from `rating_before`."""
    p = t.player(player_id)
    if p.place is None or p.rating_change is None or p.out_round is None:
        raise ValueError(f"the place of {player_id} is not fixed yet")
    last = t.rounds[p.out_round - 1]
    if last.ended_at is None:
        raise ValueError(f"round {last.number} has not ended")
    won = drawn = lost = 0
    wins_in: list[int] = []
    for rnd in t.rounds[: p.out_round]:
        duel = rnd.duel_of(player_id)
        if duel is None or duel.ended_at is None:
            continue  # a bye (R6)
        if duel.winner is None:
            drawn += 1
        elif duel.winner == player_id:
            won += 1
            if not duel.forfeit:
                wins_in.append(duel.turns_used(player_id))
        else:
            lost += 1
    return Result(
        tournament_id=t.id,
        language=t.language,
        started_at=t.created_at,
        finished_at=last.ended_at,
        place=p.place,
        rating_before=rating_before,
        rating_after=rating_before + p.rating_change,
        rounds=p.out_round,
        won=won,
        drawn=drawn,
        lost=lost,
        wins_in=tuple(wins_in),
        left=p.left_at is not None,
    )
