"""The sweep alone brings abandoned tournaments to their end, exactly once (D10, R16, R21)."""

from __future__ import annotations

import random
import threading

from api.service import Service
from api.storage.repository import Unavailable
from core.tournament_state import Tournament
from tests.scheduler.conftest import TIMING, Clock, Interceptor, eight_players_in_a_tournament

MINUTE = 60_000


def _play_round_one(service: Service, repo: Interceptor, clock: Clock, tid: str) -> None:
    """Each duel's first player finds the word at once: round 1 ends, round 2's intro starts."""
    clock.ms += TIMING.intro_ms + 1_000
    t = repo.get_tournament(tid).tournament
    for duel in t.round.duels:
        me = repo.get_player(duel.players[0])
        service.tournaments.guess(me, tid, 0, "".join(duel.secret))
    assert repo.get_tournament(tid).tournament.round.number == 2


def _sweep_until_finished(service: Service, clock: Clock, tid: str, repo: Interceptor) -> int:
    sweeps = 0
    while repo.get_tournament(tid).tournament.finished_at is None:
        clock.ms += MINUTE  # the scheduled event's cadence
        service.sweep()
        sweeps += 1
        assert sweeps < 60, "the sweep never finished the tournament"
    return sweeps


def test_d10_sweep_alone_finishes_an_abandoned_tournament(
    make_service, repo: Interceptor, clock: Clock
) -> None:
    service = make_service()
    _, tid = eight_players_in_a_tournament(service)
    _play_round_one(service, repo, clock, tid)
    # Everyone closes the app now: nobody polls again.
    sweeps = _sweep_until_finished(service, clock, tid, repo)
    t: Tournament = repo.get_tournament(tid).tournament
    assert sweeps <= 4
    assert all(p.place is not None for p in t.players)
    for p in t.players:
        stored = repo.get_player(p.id)
        # R16: applied exactly once, from the rating at the start.
        assert stored.rating == 1000 + p.rating_change
        assert stored.played == 1
        assert stored.tournament_id is None  # D14: free to queue again
    assert repo.get_tournament(tid).due is None  # finished: out of the sweep's index
    writes = repo.commits
    clock.ms += MINUTE
    report = service.sweep()
    assert (report.due, report.advanced) == (0, 0)
    assert repo.commits == writes


def test_r21_sweep_applies_the_disconnect_window(make_service, repo, clock) -> None:
    service = make_service()
    _, tid = eight_players_in_a_tournament(service)
    _play_round_one(service, repo, clock, tid)
    record = repo.get_tournament(tid)
    contacts = {
        p.id: max(p.last_contact, record.contacts.get(p.id, 0)) for p in record.tournament.players
    }
    clock.ms = max(contacts.values()) + TIMING.reconnect_ms + MINUTE
    service.sweep()
    t = repo.get_tournament(tid).tournament
    # Nobody came back: each left exactly at their last contact + 60 s (D9), and that ended it.
    assert t.finished_at is not None
    for p in t.players:
        assert p.left_at == contacts[p.id] + TIMING.reconnect_ms
        assert p.place is not None


def test_r22_group_can_start_again_after_the_sweep_ends_its_tournament(
    make_service, repo, clock
) -> None:
    service = make_service()
    members = [service.players.create("test")[0] for _ in range(8)]
    group = service.groups.create(members[0], "en")
    for m in members[1:]:
        service.groups.join(m, group.group.invite_code)
    lobby = service.groups.start(members[0], group.id)
    tid = lobby.tournament_id
    assert tid is not None
    _play_round_one(service, repo, clock, tid)
    _sweep_until_finished(service, clock, tid, repo)
    # Back on the group screen: every member is still in the group, and free.
    view = service.groups.view(members[0], group.id)
    assert [m["player_id"] for m in view["members"]] == [m.id for m in members]
    assert all(m["tournament_id"] is None for m in view["members"])
    again = service.groups.start(members[0], group.id)
    assert again.tournament_id is not None and again.tournament_id != tid


def test_sweep_racing_a_guess_loses_nothing(make_service, repo, clock) -> None:
    service = make_service()
    _, tid = eight_players_in_a_tournament(service)
    clock.ms += TIMING.intro_ms + TIMING.turn_ms + 500  # every duel's first turn has timed out
    t = repo.get_tournament(tid).tournament
    duel = t.round.duels[0]
    second = repo.get_player(duel.players[1])
    guess_service = make_service(seed=2)

    def guess_first(writes) -> None:
        # The guess (which advances and then plays) commits between the sweep's read and write.
        guess_service.tournaments.guess(second, tid, 1, "crane")

    repo.before_commit = guess_first
    report = service.sweep()
    assert report.due == 1
    board = repo.get_tournament(tid).tournament.round.duel_of(second.id)
    assert board is not None
    assert [row.word for row in board.turns] == [None, tuple("crane")]


def test_two_sweeps_at_once_do_the_work_once(make_service, repo, clock) -> None:
    service_a, service_b = make_service(seed=1), make_service(seed=2)
    _, tid = eight_players_in_a_tournament(service_a)
    clock.ms += 30 * MINUTE  # everyone long gone: this sweep ends the whole tournament
    version = repo.get_tournament(tid).version
    reports = []
    # Sweep B runs from start to end between sweep A's read and A's write. (moto does not lock
    # concurrent conditional writes the way DynamoDB does, so the interleaving is made explicit.)
    repo.before_commit = lambda writes: reports.append(service_b.sweep())
    reports.append(service_a.sweep())
    record = repo.get_tournament(tid)
    assert record.tournament.finished_at is not None
    assert record.version == version + 1  # one writer won; the other found nothing to do
    assert [(r.due, r.advanced) for r in reports] == [(1, 1), (1, 0)]
    for p in record.tournament.players:
        stored = repo.get_player(p.id)
        assert stored.played == 1 and stored.rating == 1000 + p.rating_change


def test_two_sweeps_in_threads_do_the_work_once(make_service, clock) -> None:
    """The same with real threads, on the in-memory repository (whose commits are atomic)."""
    from api.config import Settings
    from api.service.context import Context
    from api.storage.memory import InMemoryRepository

    memory = InMemoryRepository()
    services = [
        Service(
            Context(
                memory,
                Settings(timing=TIMING, rate_limits=False, outage_gap_ms=0),
                clock=clock,
                rng=random.Random(seed),
            )
        )
        for seed in range(4)
    ]
    _, tid = eight_players_in_a_tournament(services[0])
    clock.ms += 30 * MINUTE
    version = memory.get_tournament(tid).version
    barrier = threading.Barrier(len(services))
    reports = []

    def run(service: Service) -> None:
        barrier.wait()
        reports.append(service.sweep())

    threads = [threading.Thread(target=run, args=(s,)) for s in services]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    record = memory.get_tournament(tid)
    assert record.version == version + 1
    assert sum(r.advanced for r in reports) == 1
    assert all(memory.get_player(p.id).played == 1 for p in record.tournament.players)


def test_sweep_interrupted_by_a_storage_fault_is_completed_by_the_next(
    make_service, repo, clock
) -> None:
    service = make_service()
    players, tid = eight_players_in_a_tournament(service)
    clock.ms += 30 * MINUTE
    before = repo.get_tournament(tid)

    def fail(writes) -> None:
        raise Unavailable("injected fault")

    repo.before_commit = fail
    report = service.sweep()
    assert (report.due, report.advanced, report.failed) == (1, 0, 1)
    # Nothing half done: neither the tournament nor any rating changed.
    assert repo.get_tournament(tid).version == before.version
    assert all(repo.get_player(p.id).played == 0 for p in players)
    report = service.sweep()
    assert (report.due, report.advanced, report.failed) == (1, 1, 0)
    assert repo.get_tournament(tid).tournament.finished_at is not None
    assert all(repo.get_player(p.id).played == 1 for p in players)


def test_d10_sweep_moves_an_early_index_entry_without_touching_the_state(
    make_service, repo, clock
) -> None:
    """A stored deadline can be early (a poll moved a last contact later); the sweep then
    advances nothing and puts the tournament back at its real next deadline."""
    service = make_service()
    _, tid = eight_players_in_a_tournament(service)
    record = repo.get_tournament(tid)
    real_due = record.due
    repo.reschedule(tid, record.version, clock.ms)  # an index entry earlier than the state's
    clock.ms += 1
    report = service.sweep()
    assert (report.due, report.advanced) == (1, 0)
    after = repo.get_tournament(tid)
    assert after.version == record.version and after.due == real_due
    assert service.sweep().due == 0
