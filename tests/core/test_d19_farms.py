"""D19 farms: a win handed over by players who walk away is not kept (core.fairplay.farming),
while friends who play each other lose nothing (R15–R17 exactly)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from core import tournament as tm
from core.duel import Duel
from core.fairplay import farming
from core.fairplay import record as fr
from core.fairplay.record import FairPlay
from tests.core.helpers import (
    NO_DISCONNECTS,
    PIDS,
    WORDS,
    expected_change,
    play_round,
    wrong_guess,
)

LEADER, PUPPETS = PIDS[0], PIDS[1:]


def _start(ratings: dict[str, int], group: str | None, seed: int) -> tm.Tournament:
    seats = [tm.Seat(p, f"Nick {p}", ratings[p], group=group) for p in PIDS]
    t, _ = tm.start(f"t{seed}", "en", seats, 0, random.Random(seed), WORDS, NO_DISCONNECTS)
    return t


def _wrong_rows(t: tm.Tournament, rows: int, now: int) -> tuple[tm.Tournament, int]:
    """Every duel of the current round gets `rows` wrong guesses, one a second."""
    now = max(now, t.round.starts_at)
    for _ in range(rows):
        for d in t.round.duels:
            d = next(x for x in t.round.duels if x.id == d.id)
            if d.ended_at is None:
                guess = wrong_guess(d.secret, len(d.turns))
                t, _ = tm.guess(t, d.to_play, len(d.turns), guess, now, WORDS)
        now += 1000
    return t, now


Farm = Callable[[dict[str, int], int], tm.Tournament]


def audit_farm(ratings: dict[str, int], seed: int) -> tm.Tournament:
    """The audit's farm: a group of the leader and 7 puppets, who leave during the first intro."""
    t = _start(ratings, "g1", seed)
    for i, p in enumerate(PUPPETS):
        t, _ = tm.leave(t, p, 1000 + i, WORDS)
    return t


def playing_puppets(group: str | None) -> Farm:
    """Puppets that play three wrong guesses each before they leave (no walk-overs)."""

    def farm(ratings: dict[str, int], seed: int) -> tm.Tournament:
        t = _start(ratings, group, seed)
        t, now = _wrong_rows(t, 6, 0)
        for p in PUPPETS:
            t, _ = tm.leave(t, p, now, WORDS)
        return t

    return farm


def queued_farm(ratings: dict[str, int], seed: int) -> tm.Tournament:
    """The same puppets without a group, seated together by queueing at once (D15)."""
    t = _start(ratings, None, seed)
    for i, p in enumerate(PUPPETS):
        t, _ = tm.leave(t, p, 1000 + i, WORDS)
    return t


def _evenings(
    play: Farm, evenings: int = 20
) -> tuple[dict[str, int], dict[str, FairPlay], list[farming.Settlement], list[bool]]:
    """Play `evenings` tournaments, settling every player's change and record as the service
    does when a place is fixed; returns the ratings, records, the leader's settlements and
    whether the leader was listed after each tournament."""
    ratings = {p: 1000 for p in PIDS}
    records = {p: FairPlay() for p in PIDS}
    mine, listed = [], []
    for n in range(evenings):
        t = play(ratings, n)
        assert t.finished
        for p in sorted(t.players, key=lambda q: -(q.place or 0)):  # in the order places fix
            s = farming.settle(t, p.id, records[p.id].farm, fr.farm_flagged(records[p.id]))
            records[p.id] = fr.settle_farm(records[p.id], s, now=n)
            ratings[p.id] += s.change
            if p.id == LEADER:
                mine.append(s)
        listed.append(fr.listed(records[LEADER]))
    return ratings, records, mine, listed


def test_d19_the_audit_farm_gains_nothing_and_is_never_listed() -> None:
    ratings, records, settlements, listed = _evenings(audit_farm)
    assert sum(s.full for s in settlements) >= 20 * 20  # what R17 alone would have paid
    assert ratings[LEADER] - 1000 == sum(s.change for s in settlements) <= 25
    assert not any(listed)  # flagged from the first tournament on
    assert records[LEADER].reasons == ("farm",) and records[LEADER].status == fr.FLAGGED
    assert settlements[0].walkovers == 7 and settlements[0].notice
    assert records[LEADER].farm.refused == sum(s.full for s in settlements)
    # puppets that left later gain nothing from those that left first either; leaving still
    # costs each of them (R20)
    assert all(ratings[p] < 1000 for p in PUPPETS)


def test_d19_puppets_that_play_a_little_pay_once_then_the_pattern_is_noticed() -> None:
    for group in ("g1", None):
        ratings, _, settlements, listed = _evenings(playing_puppets(group))
        assert settlements[0].walkovers == 0 and not settlements[0].notice
        assert settlements[0].change == settlements[0].full == 25
        assert settlements[1].notice and settlements[1].change == 0
        assert ratings[LEADER] - 1000 <= 25
        assert listed[0] and not any(listed[1:])


def test_d19_puppets_queued_together_pay_once() -> None:
    ratings, _, settlements, listed = _evenings(queued_farm)
    assert settlements[0].change == 25 and not settlements[0].notice
    assert all(s.change <= 0 for s in settlements[1:]) and settlements[1].notice
    assert ratings[LEADER] - 1000 <= 25 and not any(listed[1:])


def test_d19_a_group_mate_who_walks_away_hands_nothing() -> None:
    t = _start({p: 1000 for p in PIDS}, "g1", 3)
    t, _ = tm.leave(t, PIDS[7], 1000, WORDS)
    while not t.finished:
        t, _, _ = play_round(t, lambda d: min(d.players))
    for p in t.players:
        s = farming.settle(t, p.id, farming.FarmMemory())
        if p.id == PIDS[7]:
            assert s.change == s.full == p.rating_change  # the leaver loses as R20 says
            continue
        others = {q.id: q.rating for q in t.players if q.id != PIDS[7]}
        places = {q.id: q.place for q in t.players if q.id != PIDS[7] and q.place}
        assert s.refused == (PIDS[7],)
        assert s.change == expected_change(p.id, others, places)  # as if they had not come
        assert s.full == p.rating_change and s.change < s.full
        assert not s.notice


def _friends_evening(ratings: dict[str, int], seed: int) -> tm.Tournament:
    """Eight friends of one group who play every duel; whoever wins is chance, and those who
    are out may leave at once (that is no quit, D14)."""
    rng = random.Random(seed)
    t = _start(ratings, "friends", seed)

    def result(d: Duel) -> str | None:
        return None if rng.random() < 0.05 else rng.choice(d.players)

    now = 0
    while not t.finished:
        t, now, _ = play_round(t, result, now)
        for p in t.players:
            if p.lives == 0 and p.left_at is None and rng.random() < 0.5:
                t, _ = tm.leave(t, p.id, now, WORDS)
    return t


def _friends_with_a_champion(ratings: dict[str, int], seed: int) -> tm.Tournament:
    """The same friends, one of whom (p0) wins nearly every duel."""
    rng = random.Random(seed)
    t = _start(ratings, "friends", seed)
    now = 0
    while not t.finished:
        t, now, _ = play_round(
            t,
            lambda d: LEADER if LEADER in d.players and rng.random() < 0.9 else min(d.players),
            now,
        )
    return t


def test_d19_friends_who_play_each_other_every_evening_lose_nothing() -> None:
    for evening in (_friends_evening, _friends_with_a_champion):
        ratings = {p: 1000 for p in PIDS}
        records = {p: FairPlay() for p in PIDS}
        for n in range(20):
            t = evening(ratings, n)
            start = {p.id: p.rating for p in t.players}
            places = {p.id: p.place for p in t.players if p.place}
            for p in t.players:
                s = farming.settle(t, p.id, records[p.id].farm, fr.farm_flagged(records[p.id]))
                records[p.id] = fr.settle_farm(records[p.id], s, now=n)
                assert s.change == s.full == p.rating_change
                assert s.change == expected_change(p.id, start, places)  # R15–R17, D5
                assert not s.refused and not s.notice
                ratings[p.id] += s.change
        assert all(fr.listed(r) and r.farm.refused == 0 for r in records.values())
        assert sum(ratings.values()) - 8000 in range(-8, 9)  # D5 is zero-sum up to rounding


def test_d19_refusing_only_ever_takes_gains_away() -> None:
    rng = random.Random(11)
    for seed in range(40):
        group = rng.choice(("g1", None))
        t = _start({p: rng.randrange(800, 1300) for p in PIDS}, group, seed)
        leavers: Sequence[str] = rng.sample(PIDS, rng.randrange(0, 6))
        for p in leavers[: len(leavers) // 2]:
            t, _ = tm.leave(t, p, 1000, WORDS)
        now = 0
        while not t.finished:
            t, now, _ = play_round(t, lambda d: rng.choice(d.players), now)
            for p in leavers[len(leavers) // 2 :]:
                if not t.finished and t.player(p).lives > 0 and rng.random() < 0.5:
                    t, _ = tm.leave(t, p, now, WORDS)
        memory = farming.FarmMemory(quitters=tuple(farming.key(p) for p in rng.sample(PIDS, 3)))
        for p in t.players:
            s = farming.settle(t, p.id, memory, farm=rng.random() < 0.3)
            assert s.change <= s.full == p.rating_change
            below = {q.id for q in t.players if (q.place or 0) > (p.place or 0)}
            quit = {q.id for q in t.players if q.left_at is not None}
            assert set(s.refused) <= below & quit
            assert (s.change == s.full) if not s.refused else s.refused_points >= 0


def test_d19_the_farm_memory_is_bounded() -> None:
    memory = farming.FarmMemory()
    for n in range(200):
        ratings = {p: 1000 for p in PIDS}
        t = audit_farm(ratings, n)
        # fresh puppets every time: rename them so that none repeats
        players = tuple(
            p if p.id == LEADER else tm.Player(**{**_fields(p), "id": f"{p.id}-{n}"})
            for p in t.players
        )
        t = tm.Tournament(**{**_fields(t), "players": players})
        memory = farming.settle(t, LEADER, memory).memory
    assert len(memory.quitters) == farming.QUITTERS_KEPT
    assert memory.handed < 1 << farming.HISTORY and memory.handed_count == farming.HISTORY


def _fields(obj: object) -> dict[str, object]:
    return {name: getattr(obj, name) for name in obj.__slots__}  # type: ignore[attr-defined]
