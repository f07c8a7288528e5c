"""D4: a duel's secret is revealed only when the duel ends — in no response of any endpoint."""

from __future__ import annotations

import json
import random

import pytest

from tests.api.checks import assert_final
from tests.api.game import Call, Game, Player, winning_sometimes
from tests.api.leaks import leaks
from tests.api.words import fillers


def test_leaks_finds_text_and_tiles() -> None:
    secret = ("c", "r", "a", "n", "e")
    assert leaks(b'{"secret":["c","r","a","n","e"]}', secret)
    assert leaks(b'{"message":"it was CRANE"}', secret)
    assert leaks(b'{"x":{"y":[["c","r","a","n","e"]]}}', secret)
    assert not leaks(b'{"id":"p_cranea12","nickname":"CraneOtter1"}', secret)
    assert not leaks(b'{"tiles":["c","r","a","n","k"]}', secret)


class SecretWatch:
    """After every response, no unfinished duel's secret may be anywhere in its body or its
    headers (the state's live boards, the history, a guess's ended duel, the Where header)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.tournaments: list[str] = []
        self.checked = 0
        self.endpoints: set[str] = set()

    def __call__(self, call: Call) -> None:
        for tid in self.tournaments:
            for rnd in self.game.stored(tid).rounds:
                for duel in rnd.duels:
                    if duel.ended_at is None:
                        found = leaks(call.body, duel.secret) + leaks(call.headers, duel.secret)
                        assert not found, (call.method, call.url, call.status, duel.id, found)
        self.checked += 1
        self.endpoints.add(f"{call.method} {call.status} {_shape(call.url)}")


def _shape(url: str) -> str:
    parts = url.split("/")
    return "/".join(
        "{id}" if "_" in p or (p.startswith("r") and p[1:2].isdigit()) else p for p in parts
    ).partition("?")[0]


def noisy(game: Game, tid: str, players: list[Player], rng: random.Random):  # type: ignore[no-untyped-def]
    """Plays like `winning_sometimes`, but first sends every kind of refused guess, and has the
    opponent try to play out of turn, so error bodies are searched too."""
    normal = winning_sometimes(0.45, rng)

    def strategy(g: Game, p: Player, t: str, duel: dict) -> str | None:
        row = len(duel["rows"])
        length = duel["word_length"]
        wrong_length = fillers("en", 5 if length != 5 else 4)[0]
        for word, status in ((wrong_length, 422), ("zzzz"[:1] * length, 422), ("x1", 422)):
            r = g.guess(p, t, row, word)
            assert r.status_code == status, r.get_json()
        opponent = next(q for q in players if q.id in duel["players"] and q.id != p.id)
        r = g.guess(opponent, t, row, fillers("en", length)[1])
        assert r.status_code == 409, r.get_json()
        r = g.guess(p, t, row + 1, fillers("en", length)[2])
        assert r.status_code == 409, r.get_json()
        return normal(g, p, t, duel)

    return strategy


@pytest.mark.parametrize("seed", [11, 12])
def test_d4_secret_never_shows_before_its_duel_ends(game: Game, seed: int) -> None:
    watch = SecretWatch(game)
    game.after_call.append(watch)
    players = game.new_players(8)
    tid = game.queue(players)
    watch.tournaments.append(tid)
    lobby_id = next(c for c in game.calls if c.url == "/v1/queue" and c.status == 201)
    lobby_id = json.loads(lobby_id.body)["id"]
    rng = random.Random(seed)
    strategy = noisy(game, tid, players, rng)

    def extras() -> bool:
        """Other endpoints a client calls during the game."""
        p = rng.choice(players)
        game.get("/v1/me", p)
        game.get("/v1/queue", p)
        game.get(f"/v1/lobbies/{lobby_id}", p)
        st = game.state(p, tid)
        for d in st["duels"]:
            game.get(f"/v1/tournaments/{tid}/duels/{d['id']}", p)
            game.get(f"/v1/tournaments/{tid}/state?watch={d['id']}", p)
        game.get(f"/v1/tournaments/{tid}/history", p)
        if st["round"] > 1:  # an earlier round's duel, long over
            game.get(f"/v1/tournaments/{tid}/duels/r1d1", p)
        return False

    final = game.play_to_end(tid, players, strategy, until=extras, watch=True, act_ms=2_000)
    assert final is not None
    # A leave and the rest of the API after the end, too.
    for p in players:
        game.leave(p, tid)
    assert_final(game, tid, players, final)
    assert watch.checked > 500
    shapes = " ".join(sorted(watch.endpoints))
    for expected in (
        "GET 200 /v1/tournaments/{id}/duels/{id}",
        "POST 200 /v1/tournaments/{id}/guesses",
        "POST 422 /v1/tournaments/{id}/guesses",
        "POST 409 /v1/tournaments/{id}/guesses",
        "GET 200 /v1/tournaments/{id}/state",
        "GET 200 /v1/tournaments/{id}/history",
        "POST 200 /v1/tournaments/{id}/leave",
    ):
        assert expected in shapes, shapes
    # Ended duels do show their secret (D4), to everyone.
    r = game.get(f"/v1/tournaments/{tid}/duels/r1d1", players[0]).get_json()
    assert r["secret"] == list(game.duel(tid, "r1d1").secret)


def test_d4_secret_hidden_from_spectators_and_leavers(game: Game) -> None:
    """A player who left (and so is out) watches a running duel: still no secret."""
    watch = SecretWatch(game)
    game.after_call.append(watch)
    players = game.new_players(8)
    tid = game.queue(players)
    watch.tournaments.append(tid)
    game.clock.advance(5_000)
    leaver = players[0]
    game.leave(leaver, tid)
    st = game.state(leaver, tid)
    running = [d for d in st["duels"] if d["result"] is None]
    assert running
    for d in running:
        r = game.get(f"/v1/tournaments/{tid}/duels/{d['id']}", leaver)
        assert r.status_code == 200 and "secret" not in r.get_json()
    ended = next(d for d in st["duels"] if d["result"] is not None)  # the forfeit
    r = game.get(f"/v1/tournaments/{tid}/duels/{ended['id']}", leaver).get_json()
    assert r["secret"] == list(game.duel(tid, ended["id"]).secret)
