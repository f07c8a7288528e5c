"""Where the player is (docs/client.md), in Debian's chromium: the client routes from the `Where`
of every read, on every screen.

- A group member still on an old tournament's screen — out and watching, or reading its results
  — is taken to the new tournament as soon as the leader starts it (R22), instead of losing turns
  on a screen nobody updates.
- A player who is out or has left is free at once (D14): Home, the logo and the out card's
  buttons stay where they lead (no bounce back to the tournament), the player can queue or open
  their group at once, and come back from home to watch the tournament go on (R9).

Every player but the browser's is a puppet the test drives over HTTP, on a server without bots.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Live
from tests.web.pages import Shots, join_in_browser, new_page
from tests.web.puppets import Puppet, Table, wait_until

pytestmark = pytest.mark.slow

# An out player in a group polls every 2 s (docs/client.md): the new tournament shows within it.
SEATED_WITHIN_MS = 4_500


def start_with_strangers(table: Table, seats: int) -> str:
    """The leader starts; puppets outside the group queue into the lobby's free seats."""
    lobby = table.leader.call("POST", f"/v1/groups/{table.group['id']}/start")
    strangers = [Puppet(table.live.url) for _ in range(seats)]
    for stranger in strangers:
        stranger.call("POST", "/v1/queue", {"language": "en"})
    tid = lobby.get("tournament_id") or wait_until(
        lambda: table.leader.me()["tournament_id"], "the tournament"
    )
    return str(tid)


def on_tournament(page: Any, tid: str, timeout: int) -> None:
    page.wait_for_function(f"() => location.hash === '#/t/{tid}'", timeout=timeout)
    page.wait_for_selector("#lives .life.you", timeout=timeout)


def out_of_a_live_tournament(
    live: Live, browser: Any
) -> tuple[Any, Any, list[str], Table, Puppet, str]:
    """A puppet's group; the browser's player joins it, the leader starts with strangers, and
    the player leaves: out, on the tournament's screen, while it goes on."""
    context, page, errors = new_page(browser, 1000, 800)
    page.goto(live.url)
    page.wait_for_selector("#play")
    table = Table(live, Puppet(live.url, nickname="Leader Lea"))
    me = join_in_browser(page, table)
    tid = start_with_strangers(table, 6)
    on_tournament(page, tid, 8_000)
    leave_in_browser(page)
    page.wait_for_selector("#out")
    return context, page, errors, table, me, tid


def leave_in_browser(page: Any) -> None:
    """The player leaves with the screen's button (R20), as a person does: the answer is the
    new state (a leave through the API would leave the page asleep until its next poll)."""
    page.click("#t-leave")
    page.click("#leave-dialog-yes")


def stays(page: Any, hash_: str, ms: int = 2_500) -> None:
    """The page is still at `hash_` after `ms` (more than a poll of every screen)."""
    page.wait_for_timeout(ms)
    assert page.evaluate("location.hash") == hash_


def test_r22_a_member_watching_an_old_tournament_is_taken_to_the_new_one_at_once(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    # Both friends leave; the first tournament goes on without them, and the browser stays on
    # it, out and watching.
    context, page, errors, table, _, first = out_of_a_live_tournament(quiet, browser)
    shot = Shots(page, artifacts, "flow-seated")
    table.leader.leave(first)
    shot("out-watching")

    # The leader starts again: the old tournament's own poll says where the player is now.
    second = start_with_strangers(table, 6)
    started = time.monotonic()
    on_tournament(page, second, SEATED_WITHIN_MS)
    assert (time.monotonic() - started) * 1000 < SEATED_WITHIN_MS
    page.wait_for_selector("#intro, #duel, #waiting")
    shot("new-tournament")
    assert not errors, errors
    context.close()


def test_r22_a_member_reading_the_results_is_taken_to_the_new_tournament_at_once(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors = new_page(browser, 1000, 800)
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    table = Table(quiet, Puppet(quiet.url, nickname="Leader Lea"), [f"Pal {i}" for i in range(6)])
    me = join_in_browser(page, table)
    first = table.start()
    on_tournament(page, first, 8_000)

    # Everyone but one puppet leaves: the tournament is over, the browser shows the results.
    leave_in_browser(page)
    page.wait_for_selector("#out")
    for puppet in table.puppets[:-1]:
        puppet.leave(first)
    page.wait_for_selector("#results #standings", timeout=10_000)
    assert me.me()["where"]["tournament_id"] is None

    second = table.start()
    started = time.monotonic()
    on_tournament(page, second, SEATED_WITHIN_MS)
    assert (time.monotonic() - started) * 1000 < SEATED_WITHIN_MS
    for puppet in [me, *table.puppets[:-1]]:
        puppet.leave(second)
    assert not errors, errors
    context.close()


def test_d14_a_player_who_left_goes_home_queues_or_opens_the_group_at_once_and_comes_back_to_watch(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors, _table, me, tid = out_of_a_live_tournament(quiet, browser)
    shot = Shots(page, artifacts, "flow-free")

    # The head's button now says Home, and home stays home.
    assert page.locator("#t-leave").inner_text() == "Home"
    page.click("#t-leave")
    page.wait_for_selector("#play")
    stays(page, "#/")
    shot("home")

    # Back to watch: the tournament goes on without us.
    assert page.locator("#last-tournament").inner_text() == "Watch it live"
    page.click("#last-tournament")
    page.wait_for_selector("#out #duel-grid")
    assert page.evaluate("location.hash") == f"#/t/{tid}"
    shot("watching-again")

    # The logo goes home, and stays.
    page.click("#brand")
    page.wait_for_selector("#play")
    stays(page, "#/")

    # The group screen opens, and stays.
    page.click("#group")
    page.wait_for_selector("#members")
    stays(page, "#/group")

    # Queue at once from the out card (D14): a lobby of our own (no bots on this server).
    page.goto(f"{quiet.url}/#/t/{tid}")
    page.wait_for_selector("#out-again")
    page.click("#out-again")
    page.wait_for_selector("#seats")
    stays(page, "#/lobby", 1_500)
    assert me.me()["where"]["lobby_id"] is not None
    page.click("#leave-lobby")
    page.wait_for_selector("#play")
    assert not errors, errors
    context.close()
