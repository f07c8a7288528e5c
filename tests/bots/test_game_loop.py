"""The bots' game loop follows the poll advice as docs/client.md asks of any client: it waits
exactly `Poll-Interval`, keeps time between polls (a turn that begins when the intro ends is
played without a poll), and does not poll before playing (the guess's answer is the state)."""

from __future__ import annotations

import random
from typing import Any

from api.bots.client import BotClient, PlayOptions, play_tournament
from api.bots.http import Http, Reply
from core.bots import HARD

ME, OTHER = "p_me", "p_other"
NOW = 1_000_000


def view(*, intro: bool, rows: int = 0, to_play: str = ME, phase: str | None = None) -> Any:
    starts_at = NOW + (300 if intro else 0)
    duel = {
        "id": "r1d1",
        "players": [ME, OTHER],
        "word_length": 5,
        "rows": [{"by": ME, "tiles": list("crane"), "marks": "-----"}] * rows,
        "to_play": to_play,
        "deadline": starts_at + 3_000,
        "starts_at": starts_at,
        "your_turn": not intro and to_play == ME,
        "result": None,
    }
    players = [{"id": p, "status": "playing", "lives": 3} for p in (ME, OTHER)]
    return {
        "phase": phase or ("intro" if intro else "duels"),
        "round": 1,
        "intro_at": NOW - 1_000,
        "starts_at": starts_at,
        "server_time": NOW,
        "language": "en",
        "timers": {"turn_ms": 3_000},
        "players": players,
        "bye": None,
        "duel": duel,
        "duels": [duel],
    }


class FakeClient(BotClient):
    """Answers polls from a script and records what the loop asked for."""

    def __init__(self, polls: list[tuple[Any, float]]) -> None:
        super().__init__(Http("http://unused"), token="t", player_id=ME)
        self.polls = polls
        self.calls: list[str] = []

    def state(self, tournament_id: str, etag: str | None = None) -> Reply:
        self.calls.append("state")
        if not self.polls:
            self.stop.set()
            return Reply(304, None, {"poll-interval": "1"})
        body, advice = self.polls.pop(0)
        return Reply(200, body, {"poll-interval": str(advice), "etag": '"e"'})

    def guess(self, tournament_id: str, row: int, word: str) -> Reply:
        self.calls.append("guess")
        answer = view(intro=False, rows=row + 1, to_play=OTHER, phase="finished")
        return Reply(200, answer, {"poll-interval": "5", "etag": '"f"'})


def play(polls: list[tuple[Any, float]]) -> list[str]:
    client = FakeClient(polls)
    options = PlayOptions(think_scale=0.01)
    play_tournament(client, "t_1", HARD, random.Random(1), options)
    return client.calls


def test_a_turn_that_begins_when_the_intro_ends_is_played_without_another_poll() -> None:
    # The intro's answer advises waking after the whole first turn: the bot keeps time.
    assert play([(view(intro=True), 30.0)]) == ["state", "guess"]


def test_on_its_turn_the_bot_plays_when_done_thinking_without_polling_first() -> None:
    assert play([(view(intro=False), 3.1)]) == ["state", "guess"]
