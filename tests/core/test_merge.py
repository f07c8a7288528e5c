"""D15 (open lobbies meet), D16 (idle seats), with R18, R22, D7, D11: pure decisions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core import lobby, merge
from core.lobby import Lobby, LobbySeat
from core.timing import PLAYERS_PER_TOURNAMENT


def filled(lobby_id: str, ratings: list[int], created_at: int = 0, language: str = "en") -> Lobby:
    seats = tuple(LobbySeat(f"{lobby_id}-{i}", r, created_at) for i, r in enumerate(ratings))
    return Lobby(lobby_id, language, created_at, seats)


def group_lobby(lobby_id: str, ratings: list[int], created_at: int = 0) -> Lobby:
    members = [LobbySeat(f"{lobby_id}-m{i}", r, created_at) for i, r in enumerate(ratings)]
    return lobby.seat_group(Lobby(lobby_id, "en", created_at, group_id=f"g-{lobby_id}"), members)


def test_d15_the_younger_lobby_moves_into_the_older() -> None:
    old, young = filled("old", [1000, 1000], created_at=5), filled("young", [1000], created_at=9)
    for a, b in ((old, young), (young, old)):  # whoever asks, the same move
        move = merge.plan(a, b)
        assert move is not None
        assert move.target.id == "old" and move.moved == ("young-0",)
        assert [s.player for s in move.target.seats] == ["old-0", "old-1", "young-0"]
        assert move.closes and not move.starts and move.source.seats == ()


def test_d15_same_age_breaks_the_tie_by_id() -> None:
    a, b = filled("a", [1000]), filled("b", [1000])
    assert merge.plan(a, b) == merge.plan(b, a)
    move = merge.plan(b, a)
    assert move is not None and move.target.id == "a"


def test_d15_every_player_must_be_within_200_of_the_merged_rating() -> None:
    # 1000 and 1250: the merged rating is 1125, within 200 of both (a join would not seat
    # them together: D6 compares with the lobby's rating before the join, 250 away).
    assert merge.plan(filled("a", [1000]), filled("b", [1250], 1)) is not None
    assert not lobby.eligible(filled("a", [1000]), 1250, "en")
    # 1000 and 1401: the merged rating 1200.5 is 200.5 away from 1000.
    assert merge.plan(filled("a", [1000]), filled("b", [1401], 1)) is None
    # The seats already there count too: 900 would end 245 from the mean (1145) of 900, 1100,
    # 1290 and 1290, though both who move in would be within 145 of it.
    assert merge.plan(filled("a", [900, 1100]), filled("b", [1290, 1290], 1)) is None


def test_d15_lobbies_of_other_languages_never_meet() -> None:
    assert merge.plan(filled("a", [1000]), filled("b", [1000], 1, language="de")) is None


def test_d15_d7_lobbies_that_fit_exactly_start_the_tournament() -> None:
    move = merge.plan(filled("a", [1000] * 5), filled("b", [1000] * 3, 1))
    assert move is not None and move.starts and move.closes
    assert len(move.target.seats) == PLAYERS_PER_TOURNAMENT


def test_d15_d7_more_than_8_together_top_up_the_fuller_one_and_start_it() -> None:
    fuller = filled("fuller", [1000] * 6, created_at=9)
    other = filled("other", [900, 1000, 1190, 1010, 1300], created_at=1)
    move = merge.plan(other, fuller)
    assert move is not None and move.target.id == "fuller" and move.starts
    assert move.moved == ("other-1", "other-3")  # the two closest to the fuller one's 1000
    assert [s.player for s in move.source.seats] == ["other-0", "other-2", "other-4"]
    assert not move.closes


def test_d15_top_up_of_equal_lobbies_fills_the_older() -> None:
    a, b = filled("a", [1000] * 5, created_at=3), filled("b", [1000] * 5, created_at=2)
    move = merge.plan(a, b)
    assert move is not None and move.target.id == "b" and len(move.moved) == 3


def test_r22_d11_a_group_lobby_takes_others_in_and_never_moves() -> None:
    group = group_lobby("grp", [1000, 1400], created_at=9)  # rated 1200, its members apart
    older = filled("older", [1150, 1250], created_at=1)
    move = merge.plan(older, group)
    assert move is not None and move.target.id == "grp" and move.target.group_rating == 1200
    assert move.moved == ("older-0", "older-1")
    # Only those who move in are held to the group's rating (D11, R18).
    assert merge.plan(group, filled("far", [1401])) is None
    assert merge.plan(group, filled("edge", [1000])) is not None
    # A group's lobby topped up from a fuller one still stays where it is.
    move = merge.plan(filled("big", [1200] * 7), group)
    assert move is not None and move.target.id == "grp" and move.starts and len(move.moved) == 6


def test_r22_two_group_lobbies_never_merge() -> None:
    assert merge.plan(group_lobby("g1", [1000]), group_lobby("g2", [1000], 1)) is None


def test_d15_full_started_or_empty_lobbies_do_not_meet() -> None:
    assert merge.plan(filled("a", [1000] * 8), filled("b", [1000], 1)) is None
    assert merge.plan(Lobby("empty", "en", 0), filled("b", [1000], 1)) is None
    assert merge.plan(filled("a", [1000]), filled("a", [1000])) is None


def test_d15_best_prefers_a_start_then_the_most_seats_then_the_closest() -> None:
    me = filled("me", [1000, 1000], created_at=5)
    seven = filled("seven", [1100] * 6, created_at=7)  # 2 + 6: starts
    three = filled("three", [1000] * 3, created_at=1)
    close = filled("close", [1000], created_at=2)
    found = merge.best(me, [close, three, seven])
    assert found is not None and found[1].id == "seven" and found[0].starts
    found = merge.best(me, [close, three])
    assert found is not None and found[1].id == "three"
    assert merge.best(me, [filled("far", [1500])]) is None


ratings = st.lists(st.sampled_from([800, 950, 1000, 1050, 1200, 1300]), min_size=1, max_size=8)


@given(ratings, ratings, st.booleans(), st.integers(0, 3), st.integers(0, 3))
def test_d15_a_move_never_loses_or_duplicates_a_seat_nor_widens_r18(
    ra: list[int], rb: list[int], grouped: bool, age_a: int, age_b: int
) -> None:
    a = group_lobby("a", ra, age_a) if grouped else filled("a", ra, age_a)
    b = filled("b", rb, age_b)
    move = merge.plan(a, b)
    if move is None:
        return
    before = sorted(s.player for s in (*a.seats, *b.seats))
    after = sorted(s.player for s in (*move.target.seats, *move.source.seats))
    assert before == after
    assert len(move.target.seats) <= PLAYERS_PER_TOURNAMENT
    assert move.closes or move.starts  # a lobby fewer, or a tournament
    if grouped:
        assert move.target.id == "a"  # R22: the group stays together where it is
    members = {s.player for s in a.seats} if grouped else set()
    target_rating = move.target.rating
    for s in move.target.seats:
        if s.player not in members:
            assert abs(s.rating - target_rating) <= lobby.RATING_WINDOW


# ---------------------------------------------------------------------------- D16


def test_d16_a_seat_falls_idle_60s_after_the_last_contact() -> None:
    lb = filled("a", [1000, 1000], created_at=1_000)
    lb = lobby.heard_from(lb, {"a-1": 30_000, "someone-else": 99_000})
    assert [s.seen for s in lb.seats] == [1_000, 30_000]
    assert lobby.idle_deadline(lb, 60_000) == 61_000
    assert lobby.idle(lb, 60_999, 60_000) == ()
    assert lobby.idle(lb, 61_000, 60_000) == ("a-0",)
    assert lobby.idle(lb, 90_000, 60_000) == ("a-0", "a-1")
    # Earlier stamps change nothing.
    assert lobby.heard_from(lb, {"a-1": 20_000}) is lb
    assert lobby.idle_deadline(Lobby("e", "en", 0), 60_000) is None


def test_d16_seating_counts_as_contact() -> None:
    lb = lobby.seat(Lobby("a", "en", 0), "p", 1000, "en", now=42)
    assert lb.seats[0].seen == 42
