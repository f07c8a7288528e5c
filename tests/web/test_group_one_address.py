"""Eight browsers on one address join a group by its invite link and play, on a server whose
rate limits are on as deployed (api/http/limits.py and the creation budgets of
api/service/creation_limits.py). Every page of this test comes from 127.0.0.1: one address, as
friends behind one home router.

Each browser makes its own player as it opens, so eight players are created from one address
within seconds (the budget of before, 5 per 10 minutes per address, refused the 6th friend, who
then saw "Connection lost" for good). One browser makes the group, seven open its link; all
eight are members, the leader starts, the lobby of eight fills by itself (no bots) and the
tournament begins. Round 1 is played in the browsers (in each duel the first to move types the
secret on the page's keyboard); the later rounds through the API with the browsers' own tokens,
as the other browser tests' puppets play; all eight read the results. No request of any page is
refused (no 429), and no page shows an error.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.service.tournaments import with_contacts
from core.timing import Timing
from core.tournament_state import Tournament
from tests.web.conftest import (
    INTRO_MS,
    PUPPET_RECONNECT_MS,
    PUPPET_TURN_MS,
    Live,
    serving,
)
from tests.web.pages import new_page
from tests.web.puppets import Puppet, wait_until

pytestmark = pytest.mark.slow

FRIENDS = 8
SIZE = {"width": 360, "height": 640}
TOKEN = "localStorage.getItem('wt.token')"


@pytest.fixture(scope="module")
def limited() -> Iterator[Live]:
    """The app with its rate limits on, as deployed; no bots (the eight fill the lobby)."""
    timing = Timing(turn_ms=PUPPET_TURN_MS, intro_ms=INTRO_MS, reconnect_ms=PUPPET_RECONNECT_MS)
    with serving(timing, False, rate_limits=True) as app:
        yield app


class Friend:
    """One browser: its page, the console errors it saw, and every answer it got."""

    def __init__(self, browser: Any) -> None:
        self.context, self.page, self.errors = new_page(browser, **SIZE)
        self.answers: list[tuple[str, str, int]] = []  # (method, path, status)
        self.page.on(
            "response",
            lambda r: self.answers.append(
                (r.request.method, r.url.split("?")[0].split("/", 3)[-1], r.status)
            ),
        )

    @property
    def id(self) -> str:
        return str(self.page.evaluate(TOKEN)).split(".", 1)[0]

    def members(self, n: int) -> None:
        self.page.wait_for_function(
            f"() => document.querySelectorAll('#members .member').length === {n}",
            timeout=15_000,
        )


def stored(live: Live, tid: str) -> Tournament:
    record = live.service.ctx.repo.get_tournament(tid)
    assert record is not None
    return with_contacts(record)


def next_round(live: Live, tid: str, number: int) -> Any:
    """Round `number` once it has begun, or None once the tournament has finished."""

    def ready() -> Any:
        t = stored(live, tid)
        if t.finished_at is not None:
            return "finished"
        return t.rounds[-1].number >= number and t.rounds[-1]

    found = wait_until(ready, f"round {number}")
    return None if found == "finished" else found


def test_eight_browsers_on_one_address_join_a_group_by_its_link_and_play(
    limited: Live, browser: Any, artifacts: Path
) -> None:
    friends = [Friend(browser) for _ in range(FRIENDS)]
    leader, others = friends[0], friends[1:]

    # The leader makes a player and a group, and reads the group's link.
    leader.page.goto(limited.url)
    leader.page.wait_for_selector("#group")
    leader.page.click("#group")
    leader.page.wait_for_selector("#invite-link")
    link = leader.page.locator("#invite-link").input_value()
    assert "/#/join/" in link, link

    # Seven friends open it, each in a browser of its own (its own player), one after another
    # as a message to the group's chat would have them.
    for friend in others:
        friend.page.goto(link)
        friend.page.wait_for_selector("#members")
        assert friend.page.evaluate("location.hash") == "#/group"
    for friend in friends:
        friend.members(FRIENDS)
    ids = [friend.id for friend in friends]
    assert len(set(ids)) == FRIENDS
    created = [a for f in friends for a in f.answers if a[:2] == ("POST", "v1/players")]
    assert [status for _, _, status in created] == [201] * FRIENDS, created
    leader.page.screenshot(path=str(artifacts / "one-address-group.png"))

    # The leader starts: the lobby of eight fills at once and the tournament begins for all.
    leader.page.click("#start")
    for friend in friends:
        friend.page.wait_for_function("() => location.hash.startsWith('#/t/')", timeout=20_000)
    hashes = {friend.page.evaluate("location.hash") for friend in friends}
    assert len(hashes) == 1, hashes
    tid = hashes.pop().removeprefix("#/t/")
    for friend in friends:
        friend.page.wait_for_selector("#lives .life.you")
        assert friend.page.locator("#lives .life").count() == FRIENDS
    assert sorted(p.id for p in stored(limited, tid).players) == sorted(ids)

    # Round 1 in the browsers: in each duel, the first to move types the secret.
    by_id = dict(zip(ids, friends, strict=True))
    first = wait_until(lambda: (t := stored(limited, tid)).rounds and t.rounds[0], "round 1")
    for duel in first.duels:
        mover = by_id[duel.players[0]].page
        mover.wait_for_selector("#duel.my-turn", timeout=20_000)
        mover.keyboard.type("".join(duel.secret))
        mover.keyboard.press("Enter")
    for duel in first.duels:
        winner = by_id[duel.players[0]].page
        winner.wait_for_selector("#waiting, #intro, #duel", timeout=20_000)
    wait_until(
        lambda: all(d.ended_at is not None for d in stored(limited, tid).rounds[0].duels),
        "round 1 played in the browsers",
    )
    leader.page.screenshot(path=str(artifacts / "one-address-round-1.png"))

    # The later rounds through the API, with the browsers' own tokens.
    puppets = {
        pid: Puppet(limited.url, token=str(f.page.evaluate(TOKEN))) for pid, f in by_id.items()
    }
    number = 2
    while (rnd := next_round(limited, tid, number)) is not None:
        for duel in rnd.duels:
            if duel.ended_at is None:
                puppets[duel.players[0]].play(tid, "".join(duel.secret), duel_id=duel.id)
        number += 1

    # Everyone reads the results; nothing was refused on the way.
    for friend in friends:
        friend.page.wait_for_selector("#results #standings", timeout=20_000)
        assert friend.page.locator("#standings > li").count() == FRIENDS
    leader.page.screenshot(path=str(artifacts / "one-address-results.png"))
    refused = [a for f in friends for a in f.answers if a[2] == 429]
    assert not refused, refused
    for friend in friends:
        assert not friend.errors, friend.errors
        friend.context.close()
