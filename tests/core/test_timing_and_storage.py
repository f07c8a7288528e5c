"""D10 (time is data) and the stored form of a tournament."""

from __future__ import annotations

import json
import random

from core import serialization
from core import tournament as tm
from core.timing import Timing
from tests.core.helpers import (
    PIDS,
    TURN,
    FakeWords,
    check_invariants,
    play_out,
    play_round,
    start,
    to_json,
)


def _steps(t: tm.Tournament, times: list[int]) -> tuple[tm.Tournament, list]:
    events: list = []
    for now in times:
        t, ev = tm.advance(t, now, FakeWords().source)
        events += ev
    return t, events


def test_d10_one_call_or_many_small_steps_give_the_same_state() -> None:
    t0 = start(seed=14, timing=Timing())  # real timers: turns expire, players drop out
    end = 30 * TURN
    one, one_events = tm.advance(t0, end, FakeWords().source)
    many, many_events = _steps(t0, [*list(range(0, end + 1, 997)), end])
    assert serialization.to_dict(one) == serialization.to_dict(many)
    assert one_events == many_events
    rng = random.Random(0)
    jumps = [*sorted(rng.sample(range(end), 25)), end]
    assert to_json(_steps(t0, jumps)[0]) == to_json(one)
    check_invariants(one)


def test_d10_a_late_sweep_equals_an_early_poll_with_commands_in_between() -> None:
    t = start(seed=15, timing=Timing())
    words = FakeWords().source
    # Everyone but p0 keeps polling every 20 s; p0 disappears; some guesses are played.
    timeline = list(range(20_000, 400_000, 20_000))
    early = late = t
    for now in timeline:
        for pid in PIDS[1:]:
            early, _ = tm.contact(early, pid, now, words)
            late, _ = tm.contact(late, pid, now, words)
        early, _ = tm.advance(early, now - 1, words)  # a sweep that happens to run just before
    assert to_json(early) == to_json(late)
    check_invariants(late)


def test_round_trip_in_every_stage() -> None:
    words = FakeWords().source
    t = start(seed=17, timing=Timing())
    stages = [t]
    t, _ = tm.advance(t, t.round.starts_at + 45_000, words)  # a skip, mid-turn
    stages.append(t)
    d = t.round.duels[0]
    t, _ = tm.guess(t, d.to_play, len(d.turns), d.secret, t.round.starts_at + 46_000, words)
    t, _ = tm.leave(t, "p5", t.round.starts_at + 47_000, words)
    stages.append(t)
    t, _ = tm.advance(t, 10**7, words)  # everyone drops out: the tournament finishes
    stages.append(t)
    t2, _ = play_out(start(seed=18))
    stages.append(t2)
    for s in stages:
        data = serialization.to_dict(s)
        assert serialization.from_dict(data) == s
        assert serialization.from_dict(json.loads(json.dumps(data))) == s


def test_r22_round_trip_keeps_each_players_group_and_reads_items_stored_without() -> None:
    groups = ["g1", "g1", None, "g2", None, None, "g1", None]
    seats = [tm.Seat(pid, pid, 1000, group=g) for pid, g in zip(PIDS, groups, strict=True)]
    t, _ = tm.start("t1", "en", seats, 0, random.Random(3), FakeWords().source, Timing())
    data = json.loads(json.dumps(serialization.to_dict(t)))
    assert [p.group for p in serialization.from_dict(data).players] == groups
    assert [len(p) for p in data["p"]] == [11 if g else 10 for g in groups]  # only when set
    for p in data["p"]:
        del p[10:]  # as stored before groups were recorded
    assert all(p.group is None for p in serialization.from_dict(data).players)


def test_d12_round_trip_with_multi_tile_words() -> None:
    tiles = ["oʻ", "gʻ", "sh", "ch", "a", "b", "d", "e"]
    secrets = {
        n: [tuple(tiles[(i + k) % 8] for k in range(n)) for i in range(8)]
        + [tuple(tiles[(i * 3 + k * 5) % 8] for k in range(n)) for i in range(8)]
        for n in (4, 5, 6)
    }
    fake = FakeWords(secrets=secrets)
    t = start(seed=19, words=fake.source, language="uz")
    d = t.round.duels[0]
    wrong = next(w for w in secrets[len(d.secret)] if w != d.secret)
    t, _ = tm.guess(t, d.to_play, 0, wrong, d.starts_at, fake.source)
    t, _, _ = play_round(t, lambda d: d.players[1], words=fake.source)
    data = json.loads(json.dumps(serialization.to_dict(t), ensure_ascii=False))
    assert serialization.from_dict(data) == t
    assert any(isinstance(d[2], list) for r in data["r"] for d in r[5])  # stored as tile lists
    check_invariants(t)


def test_from_dict_refuses_unknown_formats() -> None:
    data = serialization.to_dict(start())
    data["f"] = 99
    try:
        serialization.from_dict(data)
    except ValueError:
        return
    raise AssertionError("an unknown format was accepted")
