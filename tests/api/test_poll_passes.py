"""Poll passes (api/service/poll_passes.py; docs/decisions.md, "Reading the token's player"): a
state's ETag carries a pass that lets the next poll with the same token skip reading its player
when the state is unchanged. R25: a pass is the token's, for one tournament and one position,
for PASS_MS at most; it cannot be forged, lent or stretched, and it never answers anything but
a 304 of a state the holder was shown."""

from __future__ import annotations

from typing import Any

import pytest

from api.config import Settings
from api.service.poll_passes import PASS_MS, PollPasses
from api.storage.memory import InMemoryRepository
from api.storage.metering.meter import Meter
from api.storage.repository import Repository
from tests.api.clock import FakeClock
from tests.api.conftest import EVERY_STORE, T0, TIMING, game_for
from tests.api.etags import without_pass
from tests.api.game import Game, Player
from tests.api.repos import CountingRepo
from tests.api.words import fillers

PID, HASH, TID, WHERE = "p_0123456789abcdef", "ab" * 32, "t_0123456789abcdef", "1d177e24"


def poll(game: Game, player: Player, tid: str, etag: str | None = None) -> Any:
    headers = {"If-None-Match": etag} if etag else {}
    return game.get(f"/v1/tournaments/{tid}/state", player, headers=headers)


def pass_of(etag: str) -> str:
    return etag.strip('"').split(".")[3]


def started(make_app: Any, clock: FakeClock, meter: Meter | None = None) -> tuple[Game, str, Any]:
    repo = InMemoryRepository(meter=meter)
    game = game_for(make_app(repo), clock, repo)
    tid, players = game.start_tournament()
    clock.set(poll(game, players[0], tid).get_json()["phase_deadline"])  # the duels begin
    return game, tid, players


def player_reads(meter: Meter, action: Any) -> tuple[Any, float]:
    before = meter.by_operation().get("get_player")
    answer = action()
    after = meter.by_operation().get("get_player")
    spent = (after.read_units if after else 0.0) - (before.read_units if before else 0.0)
    return answer, spent


# ------------------------------------------------------------------ the pass itself


def test_r25_a_pass_holds_only_for_its_token_tournament_position_and_life() -> None:
    passes = PollPasses("k" * 32)
    text = passes.issue(PID, HASH, False, TID, WHERE, T0)
    holder = passes.holder(text, PID, HASH, TID, WHERE, T0 + 1)
    assert holder is not None and holder.player_id == PID and not holder.bot
    assert passes.holder(text, PID, "cd" * 32, TID, WHERE, T0) is None  # another token
    assert passes.holder(text, "p_fedcba9876543210", HASH, TID, WHERE, T0) is None
    assert passes.holder(text, PID, HASH, "t_fedcba9876543210", TID, T0) is None
    assert passes.holder(text, PID, HASH, TID, "00000000", T0) is None  # another position
    assert passes.holder(text, PID, HASH, TID, WHERE, T0 + PASS_MS) is None  # expired
    assert PollPasses("q" * 32).holder(text, PID, HASH, TID, WHERE, T0) is None  # another key


@pytest.mark.parametrize(
    "tamper",
    [
        lambda t: t.replace("h", "b", 1),  # a person's pass claiming a bot's (no budget)
        lambda t: f"{int(t[:-23], 16) + 3600:x}{t[-23:]}",  # an hour longer
        lambda t: t[:-1] + ("A" if t[-1] != "A" else "B"),  # another signature
        lambda t: t[:-2],
        lambda t: "",
        lambda t: t + "." + t,
    ],
)
def test_r25_a_tampered_pass_holds_for_nobody(tamper: Any) -> None:
    passes = PollPasses("k" * 32)
    text = passes.issue(PID, HASH, False, TID, WHERE, T0)
    assert passes.holder(tamper(text), PID, HASH, TID, WHERE, T0) is None


def test_a_bot_pass_says_so() -> None:
    passes = PollPasses("k" * 32)
    holder = passes.holder(passes.issue(PID, HASH, True, TID, WHERE, T0), PID, HASH, TID, WHERE, T0)
    assert holder is not None and holder.bot


def test_without_a_key_each_process_draws_its_own() -> None:
    text = PollPasses().issue(PID, HASH, False, TID, WHERE, T0)
    assert PollPasses().holder(text, PID, HASH, TID, WHERE, T0) is None


# ------------------------------------------------------------------ through HTTP


def test_an_unchanged_state_is_answered_without_reading_the_player(
    make_app: Any, clock: FakeClock
) -> None:
    meter = Meter()
    game, tid, players = started(make_app, clock, meter)
    etag = poll(game, players[0], tid).headers["ETag"]
    answer, read = player_reads(meter, lambda: poll(game, players[0], tid, etag))
    assert answer.status_code == 304 and read == 0.0
    assert answer.headers["ETag"] == etag and float(answer.headers["Poll-Interval"]) > 0


@EVERY_STORE
def test_a_pass_answers_without_reading_the_player_on_every_store(
    make_app: Any, clock: FakeClock, repo: Repository
) -> None:
    counting = CountingRepo(repo)
    game = game_for(make_app(counting), clock, counting)
    tid, players = game.start_tournament()
    clock.set(poll(game, players[0], tid).get_json()["phase_deadline"])
    etag = poll(game, players[0], tid).headers["ETag"]
    counting.reset()
    answer = poll(game, players[0], tid, etag)
    assert answer.status_code == 304 and answer.headers["ETag"] == etag
    assert counting.calls_to("get_player") == 0 and counting.calls_to("get_tournament") == 1


def test_d9_a_poll_answered_by_its_pass_is_contact(make_app: Any, clock: FakeClock) -> None:
    """A player who only ever polls with passes is heard from (D9): never taken as gone."""
    game, tid, players = started(make_app, clock)
    me = players[0]
    etag = poll(game, me, tid).headers["ETag"]
    clock.advance(TIMING.contact_interval_ms + 1)  # within the pass's life and the turn
    answer = poll(game, me, tid, etag)
    assert answer.status_code == 304 and answer.headers["ETag"] == etag  # by the pass
    mine = next(p for p in game.stored(tid).players if p.id == me.id)
    assert mine.last_contact == clock.ms


def test_a_changed_state_reads_the_player_and_gets_a_new_pass(
    make_app: Any, clock: FakeClock
) -> None:
    meter = Meter()
    game, tid, players = started(make_app, clock, meter)
    first = poll(game, players[0], tid)
    duel = first.get_json()["duel"]
    me = next(p for p in players if p.id == duel["to_play"])
    assert game.guess(me, tid, 0, fillers("en", duel["word_length"])[0]).status_code == 200
    answer, read = player_reads(meter, lambda: poll(game, players[0], tid, first.headers["ETag"]))
    assert answer.status_code == 200 and read == 0.5 and "Where" in answer.headers
    assert (
        answer.headers["ETag"] != first.headers["ETag"] and answer.headers["ETag"].count(".") == 3
    )


def test_r25_another_players_etag_is_no_pass_for_them(make_app: Any, clock: FakeClock) -> None:
    meter = Meter()
    game, tid, players = started(make_app, clock, meter)
    etag = poll(game, players[0], tid).headers["ETag"]
    answer, read = player_reads(meter, lambda: poll(game, players[1], tid, etag))
    assert read > 0  # read and authenticated as themselves, as without a pass
    assert answer.status_code in (200, 304)
    assert pass_of(answer.headers["ETag"]) != pass_of(etag)


def test_r25_a_pass_is_for_its_tournament_only(make_app: Any, clock: FakeClock) -> None:
    game, tid, players = started(make_app, clock)
    other, _ = game.start_tournament()
    etag = poll(game, players[0], tid).headers["ETag"]
    assert poll(game, players[0], other, etag).status_code == 403  # not a participant


def test_r25_a_rotated_or_signed_out_token_keeps_its_304s_for_the_passs_life_at_most(
    make_app: Any, clock: FakeClock
) -> None:
    game, tid, players = started(make_app, clock)
    me, them = players[0], players[1]
    etag, theirs = poll(game, me, tid).headers["ETag"], poll(game, them, tid).headers["ETag"]
    old, old_theirs = Player(me.id, me.token, me.nickname), Player(them.id, them.token, "")
    rotated = game.post("/v1/me/token", me)
    assert rotated.status_code in (200, 201)
    me.token = rotated.get_json()["token"]
    assert game.delete("/v1/me/token", them).status_code in (200, 204)
    # Within the pass's life, its unchanged state still answers 304 (nothing else does)...
    assert poll(game, old, tid, etag).status_code == 304
    assert poll(game, old_theirs, tid, theirs).status_code == 304
    assert poll(game, old, tid, without_pass(etag)).status_code == 401
    assert poll(game, old, tid).status_code == 401
    # ...and the new token's poll reads its player: the old pass is not its own.
    assert poll(game, me, tid, etag).status_code == 304
    clock.advance(PASS_MS)
    assert poll(game, old, tid, etag).status_code == 401
    assert poll(game, old_theirs, tid, theirs).status_code == 401


def test_no_pass_for_a_player_who_is_out_or_a_finished_tournament(
    make_app: Any, clock: FakeClock
) -> None:
    game, tid, players = started(make_app, clock)
    me = players[0]
    assert game.leave(me, tid).status_code == 200
    assert poll(game, me, tid).headers["ETag"].count(".") == 2  # left: no pass
    assert poll(game, players[1], tid).headers["ETag"].count(".") == 3


def test_poll_passes_spend_the_poll_budget(make_app: Any, clock: FakeClock) -> None:
    """A pass skips the player's read, not the per-token budget: ten polls a second with it
    are limited within the first minute, like polls without it."""
    repo = InMemoryRepository()
    app = make_app(repo)
    app.extensions["service"].ctx.limiter.rng.seed(1)
    game = game_for(app, clock, repo)
    tid, players = game.start_tournament()
    me = players[0]
    etag = poll(game, me, tid).headers["ETag"]
    statuses = []
    for _ in range(600):
        r = poll(game, me, tid, etag)
        statuses.append(r.status_code)
        if r.status_code == 200:
            etag = r.headers["ETag"]
        clock.advance(100)
        if r.status_code == 429:
            break
    assert statuses[-1] == 429 and len(statuses) < 600
    assert statuses.count(304) > statuses.count(200)  # mostly answered by the pass


def test_the_pass_key_comes_from_the_environment_and_a_short_one_is_refused() -> None:
    assert Settings.from_env({"WT_POLL_PASS_KEY": "k" * 32}).poll_pass_key == "k" * 32
    assert Settings.from_env({}).poll_pass_key is None
    with pytest.raises(ValueError, match="WT_POLL_PASS_KEY"):
        Settings.from_env({"WT_POLL_PASS_KEY": "short"})
    assert "k" * 32 not in repr(Settings(poll_pass_key="k" * 32))  # never in a log line
