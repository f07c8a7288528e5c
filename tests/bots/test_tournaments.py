"""Bots finish whole tournaments through the public HTTP API, in each of the 13 languages (R23),
and only the holder of the bot key may create them. (House bots, D18, are the service's own:
tests/api/test_house_bots_*.py.)"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import wordlists
from api.bots.client import BotClient, PlayOptions, play_tournament
from api.bots.http import ApiError, Http
from core.bots import EASY, HARD, MEDIUM
from tests.bots.conftest import BOT_KEY, Running, fast_settings

# Thinking takes a fraction of the (tiny) turn; polling is capped because some of the server's
# advice (finished, out and watching) is whole seconds, longer than these turns.
FAST = {"think_scale": 0.5, "poll_cap_s": 0.1}


class Rows:
    """Observer: every row any bot saw, to check the words were real guesses in the language."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, int], dict[str, Any]] = {}
        self.lock = threading.Lock()

    def guessed(self, tournament_id: str, duel_id: str, row: int, server_time: int) -> None:
        pass

    def seen(
        self, tournament_id: str, duel_id: str, viewer: str, rows: list[dict[str, Any]]
    ) -> None:
        with self.lock:
            for i, r in enumerate(rows):
                self.rows[tournament_id, duel_id, i] = r

    def round_seen(self, tournament_id: str, viewer: str, number: int, intro_at: int) -> None:
        pass

    def polling(
        self, tournament_id: str, viewer: str, view: dict[str, Any] | None, now: int
    ) -> None:
        pass


def play_group(url: str, language: str, observer: Rows, seed: int) -> dict[str, Any]:
    """Eight bots gather in a group (R22), start, and play to the end; the last state seen."""
    clients = [BotClient(Http(url)) for _ in range(8)]
    for c in clients:
        c.create_player(bot=True, bot_key=BOT_KEY)
    group = clients[0].create_group(language)
    for c in clients[1:]:
        c.join_group(group["invite_code"])
    tid = clients[0].start_group(group["id"])["tournament_id"]
    assert tid is not None
    views: list[dict[str, Any] | None] = [None] * 8
    skills = (EASY, MEDIUM, HARD, MEDIUM, EASY, HARD, MEDIUM, HARD)

    def play(i: int) -> None:
        options = PlayOptions(watch=True, observer=observer, **FAST)  # type: ignore[arg-type]
        rng = random.Random(seed * 10 + i)
        views[i] = play_tournament(clients[i], tid, skills[i], rng, options)

    threads = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=150)
    for c in clients:
        c.stop.set()
    final = views[0]
    assert final is not None
    return final


def test_r23_bots_finish_a_tournament_in_every_language(
    api_server: Callable[..., Running],
) -> None:
    running = api_server()
    observer = Rows()
    results: dict[str, dict[str, Any]] = {}
    errors: list[BaseException] = []

    def one(language: str, seed: int) -> None:
        try:
            results[language] = play_group(running.url, language, observer, seed)
        except BaseException as exc:  # reported below, with the language
            errors.append(exc)

    started = time.monotonic()
    threads = [
        threading.Thread(target=one, args=(lang, i), daemon=True)
        for i, lang in enumerate(wordlists.LANGUAGES)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=170)
    assert not errors, errors
    assert set(results) == set(wordlists.LANGUAGES)
    for language, view in results.items():
        assert view["phase"] == "finished", language
        assert view["language"] == language
        assert all(p["bot"] for p in view["players"])
        assert all(p["place"] is not None for p in view["players"]), language
    guessed = [(tid, r) for (tid, _, _), r in observer.rows.items() if not r.get("skipped")]
    by_language: dict[str, int] = {}
    for tid, r in guessed:
        language = next(lang for lang, v in results.items() if v["id"] == tid)
        tiles = set(wordlists.LANGUAGES[language].tiles)
        assert set(r["tiles"]) <= tiles, (language, r)
        assert wordlists.is_accepted(language, tuple(r["tiles"])), (language, r)
        by_language[language] = by_language.get(language, 0) + 1
    assert set(by_language) == set(wordlists.LANGUAGES)  # real guesses everywhere, not skips
    assert time.monotonic() - started < 150


def test_bot_players_need_the_bot_key(api_server: Callable[..., Running]) -> None:
    running = api_server()
    client = BotClient(Http(running.url))
    with pytest.raises(ApiError) as refused:
        client.create_player(bot=True)
    assert refused.value.status == 403 and refused.value.code == "bot_key"
    with pytest.raises(ApiError) as wrong:
        client.create_player(bot=True, bot_key="guess")
    assert wrong.value.status == 403
    profile = client.create_player(bot=True, bot_key=BOT_KEY, rating=1234)
    assert profile["bot"] is True and profile["rating"] == 1234
    person = BotClient(Http(running.url)).create_player()
    assert person["bot"] is False and person["rating"] == 1000
    with pytest.raises(ApiError) as bad_rating:
        client.create_player(bot=True, bot_key=BOT_KEY, rating=-5)
    assert bad_rating.value.status == 400


def test_a_deployment_without_a_bot_key_refuses_every_bot(
    api_server: Callable[..., Running],
) -> None:
    running = api_server(fast_settings(bot_key=None))
    with pytest.raises(ApiError) as refused:
        BotClient(Http(running.url)).create_player(bot=True, bot_key="")
    assert refused.value.status == 403
