"""D19 on the leaderboards (core.leaderboard): a held player is read by no snapshot, merged out
of parts read before, and has no rank; a player cleared since their part was read was not
counted by it."""

from __future__ import annotations

from dataclasses import replace

from core import leaderboard as lb
from core.fairplay import record as fr
from core.fairplay.record import FairPlay
from core.leaderboard import ALL, Board, Listed
from core.results import Result
from core.stats import Stats, add

NOW = 1_770_000_000_000


def _stats(rating: int, at: int = NOW) -> Stats:
    result = Result("t1", "en", at - 1000, at, 1, 1000, rating, 5, 3, 0, 2, (3,), False)
    return add(None, result, "Ann", False, at)


def test_d19_held_players_are_not_indexed_and_have_no_rank() -> None:
    s = _stats(1100)
    flagged = FairPlay(status=fr.FLAGGED, status_at=NOW, reasons=("choices",))
    board = lb.build([lb.Entry("p2", "Bo", 1200, NOW, {"en": NOW})], NOW + 5, [ALL])[ALL]
    assert lb.indexed(s, None) and lb.indexed(s, FairPlay())
    assert not lb.indexed(s, flagged) and not lb.indexed(s, replace(flagged, status=fr.CONFIRMED))
    assert not lb.indexed(replace(s, bot=True), None)
    assert lb.rank(board, "p1", s, NOW + 10) == 2
    assert lb.rank(board, "p1", s, NOW + 10, flagged) is None
    assert lb.rank(board, "p1", s, NOW + 10, fr.clear(flagged, "ops", NOW + 1)) == 2


def test_d19_a_part_read_before_the_flag_is_merged_without_them() -> None:
    top = (Listed("a", "A", 1300, NOW), Listed("b", "B", 1200, NOW), Listed("c", "C", 1200, NOW))
    part = Board(ALL, NOW, top, ((1300, 1), (1200, 2), (1000, 7)))
    out = lb.without(part, {"b", "zz"})
    assert [x.player_id for x in out.top] == ["a", "c"]
    assert out.histogram == ((1300, 1), (1200, 1), (1000, 7)) and out.players == 9
    assert lb.without(part, {"zz"}) is part
    assert lb.without(part, {"a"}).histogram == ((1200, 2), (1000, 7))


def test_d19_a_player_cleared_since_their_part_was_read_was_not_counted() -> None:
    # p1 was at 1300, held when the snapshot was taken (so not in it), cleared, then fell to
    # 1100: the snapshot did not count them above themselves, so nobody is taken off for them.
    first = Result("t1", "en", NOW - 9000, NOW - 5000, 1, 1000, 1300, 5, 3, 0, 2, (3,), False)
    then = add(None, first, "Ann", False, NOW - 5000)
    second = replace(
        first, tournament_id="t2", finished_at=NOW + 50, rating_before=1300, rating_after=1100
    )
    now = add(then, second, "Ann", False, NOW + 50)
    board = lb.build([lb.Entry("p2", "Bo", 1200, NOW, {"en": NOW})], NOW, [ALL])[ALL]
    assert lb.counted_at(now, ALL, NOW) == 1300  # what the statistics alone would say
    cleared = fr.clear(FairPlay(status=fr.FLAGGED, status_at=NOW - 100), "ops", NOW + 20)
    assert lb.rank(board, "p1", now, NOW + 60, cleared) == 2  # below p2, counted once
    assert lb.rank(board, "p1", now, NOW + 60, FairPlay()) == 1  # had it counted them
