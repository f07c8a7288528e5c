"""Players' history and statistics in every Repository (the in-memory fake, moto, DynamoDB
Local): history lines, statistics, who played lately, and leaderboard snapshots."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

import wordlists
from api.storage import keys
from api.storage.dynamodb.items import to_item
from api.storage.metering.billing import item_size, write_units
from api.storage.records import StatsRecord
from api.storage.repository import Conflict, Put, Repository
from core.leaderboard import ALL, PARTS, part_of
from core.stats import RATING_POINTS, Stats, add
from tests.storage.factories import DAY, NOW, board, finished_tournament, line, player, stats

# ---------------------------------------------------------------------------- statistics


def test_stats_round_trip(repo: Repository) -> None:
    mine = StatsRecord("p1", stats())
    first = StatsRecord("p2", stats(results=1))
    bot = StatsRecord("p3", stats(bot=True))
    repo.commit([Put(mine, new=True), Put(first, new=True), Put(bot, new=True)])
    assert repo.get_stats(["p3", "nobody", "p1", "p2"]) == [
        replace(bot, version=1),
        replace(mine, version=1),
        replace(first, version=1),
    ]
    assert repo.get_stats([]) == []


def test_stats_are_versioned_like_every_record(repo: Repository) -> None:
    repo.commit([Put(StatsRecord("p1", stats()), new=True)])
    with pytest.raises(Conflict):
        repo.commit([Put(StatsRecord("p1", stats(results=1)), new=True)])
    [read] = repo.get_stats(["p1"])
    more = add(read.stats, line("p1", "t9", NOW + 5).result, "New name", False, NOW + 9)
    repo.commit([Put(replace(read, stats=more))])
    with pytest.raises(Conflict):
        repo.commit([Put(replace(read, stats=more))])  # stale
    [stored] = repo.get_stats(["p1"])
    assert stored.version == 2 and stored.stats == more


def test_a_busy_players_stats_fit_one_write_unit() -> None:
    """Every language, a full rating chart, long counts: still under 1 KB (R16's transaction
    writes it with every place)."""
    s: Stats | None = None
    languages = list(wordlists.LANGUAGES)
    for i in range(RATING_POINTS + 200):
        r = line(
            "p_0123456789abcdef",
            f"t_{i:016x}",
            NOW + i * 1000,
            place=1 + i % 8,
            language=languages[i % len(languages)],
        ).result
        s = add(
            s,
            replace(r, rating_before=-1500 + i, rating_after=-1499 + i),
            "N" * 20,
            False,
            NOW + i * 1000 + 1,
        )
    assert s is not None and len(s.languages) == 13 and len(s.points) == RATING_POINTS
    attrs = to_item(StatsRecord("p_0123456789abcdef", s), 10**6, write_id="w" * 12).serialize()
    assert write_units(item_size(attrs)) == 1, item_size(attrs)


# ---------------------------------------------------------------------------- history


def test_a_history_line_is_written_once(repo: Repository) -> None:
    repo.commit([Put(line("p1", "t1", NOW), new=True)])
    with pytest.raises(Conflict):
        repo.commit([Put(line("p1", "t1", NOW + 5), new=True)])
    assert [r.result.finished_at for r in repo.history("p1", 10)] == [NOW]


def test_history_pages_newest_first(repo: Repository) -> None:
    times = [NOW + 3_000 * i for i in (5, 1, 9, 3, 7, 0, 8, 2, 6, 4)]
    lines = [line("p1", f"t{i:02d}", at) for i, at in enumerate(times)]
    lines.append(line("p1", "t99", times[2]))  # the same moment as t02: the id decides
    lines.append(line("p2", "t50", NOW + 99_000))  # another player's
    repo.commit([Put(r, new=True) for r in lines])
    newest = sorted(
        ((r.result.finished_at, r.result.tournament_id) for r in lines if r.player_id == "p1"),
        reverse=True,
    )
    pages: list[list[tuple[int, str]]] = []
    after = None
    while True:
        page = repo.history("p1", 4, after)
        if not page:
            break
        pages.append([(r.result.finished_at, r.result.tournament_id) for r in page])
        after = pages[-1][-1]
    assert [len(p) for p in pages] == [4, 4, 3]
    assert [x for p in pages for x in p] == newest
    assert newest[:2] == [(times[2], "t99"), (times[2], "t02")]
    [only] = repo.history("p2", 10)
    assert only == replace(lines[-1], version=1)
    assert repo.history("nobody", 10) == []


def test_history_lines_round_trip(repo: Repository) -> None:
    left = line("p1", "t1", NOW, place=8, language="uz")
    repo.commit([Put(left, new=True)])
    assert repo.history("p1", 1) == [replace(left, version=1)]


# ---------------------------------------------------------------------------- leaderboards


def test_active_players_are_the_players_who_finished_since(repo: Repository) -> None:
    records = [
        StatsRecord(f"p{i:02d}", stats(nickname=f"N{i}", at=NOW - i * DAY)) for i in range(40)
    ]
    records.append(StatsRecord("bot", stats(bot=True)))
    repo.commit([Put(r, new=True) for r in records[:20]])
    repo.commit([Put(r, new=True) for r in records[20:]])
    since = NOW - 25 * DAY
    found = {e.player_id: e for e in repo.active_players(since)}
    expected = {r.player_id: r.stats for r in records[:-1] if (r.stats.last_played or 0) >= since}
    assert set(found) == set(expected) and len(found) == 26  # 0 to 25 days ago
    for pid, s in expected.items():
        e = found[pid]
        assert (e.nickname, e.rating, e.last_played) == (s.nickname, s.rating, s.last_played)
        assert e.languages == s.languages
    by_part = [e.player_id for k in range(PARTS) for e in repo.active_players(since, k)]
    assert sorted(by_part) == sorted(found)  # the parts split the players, one part each
    for k in (0, 5):
        assert all(part_of(e.player_id) == k for e in repo.active_players(since, k))


def test_a_new_result_moves_a_player_in_the_active_index(repo: Repository) -> None:
    old = StatsRecord("p1", stats(at=NOW - 40 * DAY))
    repo.commit([Put(old, new=True)])
    assert list(repo.active_players(NOW - 30 * DAY)) == []
    [read] = repo.get_stats(["p1"])
    again = add(read.stats, line("p1", "t7", NOW).result, "Renamed", False, NOW)
    repo.commit([Put(replace(read, stats=again))])
    [entry] = repo.active_players(NOW - 30 * DAY)
    assert (entry.nickname, entry.last_played, entry.rating) == ("Renamed", NOW, 1011)


def test_board_snapshots_are_replaced_only_by_newer_ones(repo: Repository) -> None:
    assert repo.get_board(ALL) is None
    first = board(NOW, top=100)
    repo.save_board(first)
    repo.save_board(board(NOW, "de", top=0))
    for _ in range(8):  # whichever copy is read
        assert repo.get_board(ALL) == first
    repo.save_board(board(NOW - 1))  # older: ignored
    repo.save_board(first)  # the same again (a retry): fine
    newer = board(NOW + 60_000, top=5)
    repo.save_board(newer)
    for _ in range(8):
        assert repo.get_board(ALL) == newer
    assert repo.get_board("de") == board(NOW, "de", top=0)
    assert repo.get_board("fr") is None


def test_part_snapshots_are_replaced_only_by_newer_ones(repo: Repository) -> None:
    assert repo.get_parts() == {}
    first = {ALL: board(NOW, top=100), "de": board(NOW, "de", top=2)}
    repo.save_part(3, first)
    repo.save_part(15, {ALL: board(NOW + 5, top=1), "de": board(NOW + 5, "de", top=0)})
    repo.save_part(3, {ALL: board(NOW - 1), "de": board(NOW - 1, "de")})  # older: ignored
    parts = repo.get_parts()
    assert sorted(parts) == [3, 15] and parts[3] == first
    newer = {ALL: board(NOW + 60_000, top=4), "de": board(NOW + 60_000, "de", top=4)}
    repo.save_part(3, newer)
    assert repo.get_parts()[3] == newer


def test_only_one_refresh_is_claimed_at_a_time(repo: Repository) -> None:
    assert repo.claim_refresh(NOW, 60_000)
    assert not repo.claim_refresh(NOW + 1, 60_000)
    assert not repo.claim_refresh(NOW + 59_999, 60_000)
    assert repo.claim_refresh(NOW + 60_000, 60_000)


def test_the_largest_place_fixing_commit_fits_one_transaction(repo: Repository) -> None:
    """R8: a round that eliminates all eight fixes eight places at once: the tournament, and
    each player's record, history line and statistics (25 writes of the 100 allowed)."""
    t = finished_tournament("t1").tournament
    players = [player(p.id) for p in t.players]
    repo.commit([Put(p, new=True) for p in players])
    writes = [Put(replace(finished_tournament("t1"), due=None), new=True)]
    for p in repo.get_players([p.id for p in players]):
        writes.append(Put(replace(p, rating=p.rating + 4, played=1)))
        writes.append(Put(line(p.id, "t1", NOW), new=True))
        writes.append(Put(StatsRecord(p.id, stats()), new=True))
    assert len(writes) == 25
    repo.commit(writes)
    assert len(repo.get_stats([p.id for p in players])) == 8
    assert all(len(repo.history(p.id, 5)) == 1 for p in players)


def test_the_active_index_spreads_each_part_over_its_keys() -> None:
    """Each part's players spread over ACTIVE_SPREAD keys (a partition's write limit at ten
    million players), the first of them `A#<part>` as before; the refresh reads them all."""
    ids = [f"p_{i:016x}" for i in range(4_000)]
    by_key = Counter(keys.active_shard(p) for p in ids)
    every = {k for part in range(PARTS) for k in keys.active_keys(part)}
    assert set(by_key) == every and len(every) == PARTS * keys.ACTIVE_SPREAD
    assert all(keys.active_shard(p) in keys.active_keys(part_of(p)) for p in ids)
    assert keys.active_keys(3)[0] == "A#3"  # where every item written before the spread is
    assert max(by_key.values()) < 2 * len(ids) / len(every)
