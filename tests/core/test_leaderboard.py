"""Leaderboards (R15, D1): boards built from active players, ranks as counts, and the caller
never counted above themselves."""

from __future__ import annotations

import random

from core.leaderboard import (
    ALL,
    PARTS,
    TOP,
    WINDOW_MS,
    Board,
    Entry,
    build,
    counted_at,
    merge,
    on_board,
    part_of,
    rank,
)
from core.results import Result
from core.stats import Stats, add

NOW = 100 * 86_400_000
DAY = 86_400_000


def entry(pid: str, rating: int, **languages: int) -> Entry:
    return Entry(pid, f"N{pid}", rating, max(languages.values()), languages)


def test_d1_boards_rank_by_rating_with_shared_places_and_the_30_day_window() -> None:
    entries = [
        entry("a", 1200, en=NOW - DAY),
        entry("b", 1100, en=NOW - 2 * DAY, de=NOW - 3 * DAY),
        entry("c", 1100, de=NOW - DAY),  # ties with b: both 2nd on everyone's board
        entry("d", 1300, en=NOW - 31 * DAY),  # too long ago
        entry("e", 900, en=NOW - 40 * DAY, de=NOW - 5 * DAY),  # still on de's board
    ]
    boards = build(entries, NOW, [ALL, "en", "de", "fr"])
    everyone = boards[ALL]
    assert [x.player_id for x in everyone.top] == ["a", "b", "c", "e"]  # b got there first
    assert everyone.ranks() == [1, 2, 2, 4]
    assert everyone.histogram == ((1200, 1), (1100, 2), (900, 1)) and everyone.players == 4
    assert [x.player_id for x in boards["en"].top] == ["a", "b"]
    assert [x.player_id for x in boards["de"].top] == ["b", "c", "e"]
    assert boards["de"].top[0].played_at == NOW - 3 * DAY  # when they last played German
    assert boards["fr"].top == () and boards["fr"].players == 0
    assert everyone.above(1100) == 1 and everyone.above(1099) == 3 and everyone.above(5000) == 0


def test_a_board_lists_the_top_100_and_counts_everyone() -> None:
    rng = random.Random(1)
    entries = [entry(f"p{i:04d}", rng.randint(700, 1400), en=NOW - i) for i in range(1000)]
    board = build(entries, NOW, [ALL])[ALL]
    ratings = sorted((e.rating for e in entries), reverse=True)
    assert [x.rating for x in board.top] == ratings[:TOP]
    assert board.players == 1000
    for e in entries[:50]:  # a rank is a count of the higher ratings
        assert board.above(e.rating) == sum(r > e.rating for r in ratings)


def result(at: int, before: int, after: int, language: str = "en") -> Result:
    return Result(f"t{at}", language, at - 1000, at, 4, before, after, 4, 1, 0, 3, (3,), False)


def stats_after(*results: tuple[Result, int]) -> Stats:
    stats: Stats | None = None
    for r, recorded in results:
        stats = add(stats, r, "me", False, recorded)
    assert stats is not None
    return stats


def board_of(as_of: int, ratings: list[int], name: str = ALL) -> Board:
    return build([entry(f"o{i}", r, en=as_of - DAY) for i, r in enumerate(ratings)], as_of, [name])[
        name
    ]


def test_a_rank_compares_the_rating_now_with_the_others_in_the_snapshot() -> None:
    me = stats_after((result(NOW - 3 * DAY, 1000, 1100), NOW - 3 * DAY))
    board = board_of(NOW - 60_000, [1200, 1150, 1100, 1000])
    # The snapshot was taken after my result: it counted me at 1100, which is not above me.
    assert counted_at(me, ALL, board.as_of) == 1100
    assert rank(board, "me", me, NOW) == 3  # two rated higher; the other 1100 shares my place (D1)
    assert rank(board, "me", me, NOW + 28 * DAY) is None  # no tournament in the last 30 days
    assert not on_board(me, "de", NOW) and on_board(me, "en", NOW)


def test_a_result_after_the_snapshot_is_not_counted_above_oneself() -> None:
    """The snapshot holds me at 1250 (and one other player at 1200); I have dropped to 1180
    since: only the other one is above me, not my old self."""
    as_of = NOW - 30_000
    me = stats_after(
        (result(NOW - 2 * DAY, 1000, 1250), NOW - 2 * DAY),
        (result(NOW - 10_000, 1250, 1180), NOW - 10_000),
    )
    board = build(
        [
            Entry("me", "me", 1250, NOW - 2 * DAY, {"en": NOW - 2 * DAY}),
            entry("o", 1200, en=NOW - DAY),
        ],
        as_of,
        [ALL, "en"],
    )
    for name in (ALL, "en"):
        assert counted_at(me, name, as_of) == 1250
        assert rank(board[name], "me", me, NOW) == 2


def test_a_first_result_after_the_snapshot_was_not_in_it() -> None:
    as_of = NOW - 30_000
    me = stats_after((result(NOW - 10_000, 1000, 975, "de"), NOW - 10_000))
    assert counted_at(me, ALL, as_of) is None and counted_at(me, "de", as_of) is None
    assert rank(board_of(as_of, [1200, 1000, 950]), "me", me, NOW) == 3


def test_another_languages_board_kept_its_count_of_the_player() -> None:
    """A German result since the snapshot: the English board counted me at my rating then, if
    I had played English within its window."""
    as_of = NOW - 30_000
    me = stats_after(
        (result(NOW - 5 * DAY, 1000, 1300, "en"), NOW - 5 * DAY),
        (result(NOW - 10_000, 1300, 1280, "de"), NOW - 10_000),
    )
    assert counted_at(me, "en", as_of) == 1300
    assert counted_at(me, "de", as_of) is None
    assert counted_at(me, ALL, as_of) == 1300


def test_two_results_since_the_snapshot_are_beyond_what_the_stats_tell() -> None:
    as_of = NOW - 60_000
    me = stats_after(
        (result(NOW - DAY, 1000, 1100), NOW - DAY),
        (result(NOW - 40_000, 1100, 1050), NOW - 40_000),
        (result(NOW - 10_000, 1050, 1000), NOW - 10_000),
    )
    assert counted_at(me, ALL, as_of) is None


def test_bots_are_on_no_board() -> None:
    bot = add(None, result(NOW - DAY, 1000, 1025), "bot", True, NOW - DAY)
    assert not on_board(bot, ALL, NOW) and counted_at(bot, ALL, NOW) is None
    assert rank(board_of(NOW, [1100]), "bot", bot, NOW) is None
    assert rank(board_of(NOW, [1100]), "x", None, NOW) is None
    assert WINDOW_MS == 30 * DAY


def test_boards_built_in_parts_and_merged_are_the_boards_of_everyone() -> None:
    rng = random.Random(7)
    languages = ["en", "de", "uz"]
    entries = []
    for i in range(600):
        played = {lang: NOW - rng.randint(0, 40) * DAY for lang in rng.sample(languages, 2)}
        entries.append(entry(f"p{i:04d}", rng.randint(800, 1300), **played))
    names = [ALL, *languages]
    whole = build(entries, NOW, names)
    parts = [
        build([e for e in entries if part_of(e.player_id) == k], NOW - k, names)
        for k in range(PARTS)
    ]
    ages = tuple(NOW - k for k in range(PARTS))
    for name in names:
        merged = merge(name, [p[name] for p in parts], ages)
        assert merged.top == whole[name].top and merged.histogram == whole[name].histogram
        assert merged.as_of == NOW - (PARTS - 1) and merged.as_of_part(3) == NOW - 3
    assert whole[ALL].as_of_part(5) == NOW  # one part: everyone's time


def test_a_rank_uses_the_time_the_players_own_part_was_read() -> None:
    """Parts are read at different times: whether the snapshot holds my old rating depends on
    when my part was read, not on the oldest part."""
    me = stats_after(
        (result(NOW - 2 * DAY, 1000, 1250), NOW - 2 * DAY),
        (result(NOW - 10_000, 1250, 1180), NOW - 10_000),
    )
    old_me = [Entry("me", "me", 1250, NOW - 2 * DAY, {"en": NOW - 2 * DAY})]
    other = [entry("o", 1200, en=NOW - DAY)]
    mine, theirs = part_of("me"), part_of("o")
    assert mine != theirs
    read_at = [NOW - 60_000] * PARTS
    read_at[mine] = NOW - 30_000  # my part was read before my latest result
    parts = [build(old_me, NOW - 30_000, [ALL]), build(other, NOW - 60_000, [ALL])]
    board = merge(ALL, [p[ALL] for p in parts], tuple(read_at))
    assert board.as_of == NOW - 60_000 and board.as_of_part(mine) == NOW - 30_000
    assert rank(board, "me", me, NOW) == 2  # only "o" is above me: my old self is not
    read_at[mine] = NOW - 5_000  # had it been read after, the snapshot would hold me now
    later = merge(ALL, [p[ALL] for p in parts], tuple(read_at))
    assert counted_at(me, ALL, later.as_of_part(mine)) == 1180
