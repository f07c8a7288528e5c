"""What every finished tournament must show, checked from scratch: places, ratings applied
once, free players, and the stored tournament's invariants."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from core.timing import MAX_ROWS, TURNS_PER_PLAYER
from core.tournament_state import Tournament
from tests.api.game import JSON, START_RATING, Game, Player

R17 = {1: 25, 2: 18, 3: 11, 4: 4, 5: -4, 6: -11, 7: -18, 8: -25}  # by place, equal ratings


def round_half_away(x: Fraction) -> int:
    sign = -1 if x < 0 else 1
    return sign * int(abs(x) + Fraction(1, 2))


def equal_rating_change(place: int, places: Sequence[int]) -> int:
    """D5 with everyone at the same rating (E = ½ against each), exactly, from scratch."""
    total = Fraction(0)
    for other in places:
        total += Fraction(1) if other > place else Fraction(1, 2) if other == place else 0
    total -= Fraction(1, 2)  # the player itself counted as a draw above
    total -= Fraction(len(places) - 1, 2)
    return round_half_away(total * 50 / 7)


def finish_key(t: Tournament, player_id: str) -> tuple[int, int, int]:
    """How well a player finished: later elimination is better; the winner is best; leavers of
    a round rank below that round's other eliminations (R8, D8)."""
    p = t.player(player_id)
    last = t.rounds[-1].number
    out = last if p.out_round is None else p.out_round
    return (out, int(p.lives > 0), int(p.left_at is None))


def assert_final(game: Game, tid: str, players: Sequence[Player], final: JSON) -> None:
    """The end of a tournament as every rule about places and ratings says (R7, R8, R15–R17,
    D1, D5, D8, D14), with ratings applied exactly once to the player records."""
    assert final["phase"] == "finished"
    t = game.stored(tid)
    assert t.finished_at is not None
    places = {p["id"]: p["place"] for p in final["players"]}
    changes = {p["id"]: p["rating_change"] for p in final["players"]}
    assert set(places) == {p.id for p in players}
    assert all(isinstance(v, int) for v in places.values()), places
    # R7: exactly one winner (or R8: a last round that eliminated everyone left).
    winners = [pid for pid, place in places.items() if place == 1]
    assert len(winners) >= 1
    # D1 from the stored facts: place = 1 + number of players who finished strictly better.
    keys = {p.id: finish_key(t, p.id) for p in players}
    for pid, place in places.items():
        better = sum(1 for q in keys if keys[q] > keys[pid])
        assert place == 1 + better, (pid, place, keys)
    # D5, computed independently (everyone started at 1000); R17's table for lone places.
    for pid, place in places.items():
        assert changes[pid] == equal_rating_change(place, list(places.values())), (pid, place)
        if list(places.values()).count(place) == 1:
            assert changes[pid] == R17[place], (pid, place)
    # Applied exactly once, and everyone is free again (D14) — even after more polls.
    for _ in range(2):
        for p in players:
            me = game.me(p)
            assert me["rating"] == START_RATING + changes[p.id], (p.name, me, changes[p.id])
            assert me["tournaments_played"] == 1
            assert me["tournament_id"] is None and me["lobby_id"] is None
            assert me["last_tournament_id"] == tid
        game.state(players[0], tid)
    assert_invariants(t)


def assert_free_to_queue(game: Game, players: Sequence[Player], language: str = "en") -> None:
    """D14: players who are out may queue again at once (then leave again, R19)."""
    for p in players:
        r = game.post("/v1/queue", p, json={"language": language})
        assert r.status_code == 201, (p.name, r.get_json())
        r = game.delete("/v1/queue", p)
        assert r.status_code == 204, r.get_data(as_text=True)


def assert_invariants(t: Tournament) -> None:
    """Core invariants of a stored tournament (R1, R5, R10, R11, R14)."""
    for p in t.players:
        assert 0 <= p.lives <= 3, p
    for rnd in t.rounds:
        for d in rnd.duels:
            assert len(d.turns) <= MAX_ROWS, d.id
            for i, turn in enumerate(d.turns):
                assert turn.player == d.players[i % 2], f"{d.id}: turns must alternate"
            for who in d.players:
                assert d.turns_used(who) <= TURNS_PER_PLAYER
            times = [turn.at for turn in d.turns]
            assert times == sorted(times), d.id
            if d.ended_at is not None and d.winner is not None and not d.forfeit:
                last = [turn for turn in d.turns if turn.word is not None][-1]
                assert last.word == d.secret and last.player == d.winner, d.id
