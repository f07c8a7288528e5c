"""The invite link, end to end in Debian's chromium: the leader makes a group and reads its link,
a friend in a second browser (its own localStorage, so its own player) opens it and joins, both
screens show the two members, a revoked link shows a clear error in a third browser, and the
leader's Start takes both friends into the same lobby and tournament (the bots fill it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.catalogues import ENGLISH
from tests.web.conftest import Live
from tests.web.pages import Shots, join_in_browser, new_page
from tests.web.puppets import Puppet, Table
from tests.web.screen_checks import fits

pytestmark = pytest.mark.slow


def members(page: Any, n: int) -> None:
    """Wait until the group screen lists n members (the group screen polls every 2 s)."""
    page.wait_for_function(f"() => document.querySelectorAll('#members .member').length === {n}")


def test_a_friend_joins_through_the_invite_link_and_a_revoked_link_is_refused(
    live: Live, browser: Any, artifacts: Path
) -> None:
    leader_ctx, leader, leader_errors = new_page(browser, 1200, 860)
    friend_ctx, friend, friend_errors = new_page(browser, 1200, 860)
    shot_leader = Shots(leader, artifacts, "invite-leader")
    shot_friend = Shots(friend, artifacts, "invite-friend")

    # The leader makes a group and reads the link it shows.
    leader.goto(live.url)
    leader.wait_for_selector("#group")
    leader.click("#group")
    leader.wait_for_selector("#invite-link")
    members(leader, 1)
    link = leader.locator("#invite-link").input_value()
    match = re.fullmatch(re.escape(live.url) + r"/#/join/(g_[0-9a-f]+\.[^/]+)", link)
    assert match, link
    shot_leader("group")

    # The friend, a separate browser context with its own token, opens the link: a member.
    friend.goto(link)
    friend.wait_for_selector("#members")
    assert friend.evaluate("location.hash") == "#/group"
    members(friend, 2)
    assert friend.locator("#members .member.me").count() == 1
    assert friend.locator("#members .badge").count() == 1  # the leader's, not ours
    assert friend.locator("#members .member.me .badge").count() == 0
    assert friend.locator("#start").count() == 0  # only the leader starts
    assert friend.locator(".waiting-note").is_visible()
    tokens = [p.evaluate("localStorage.getItem('wt.token')") for p in (leader, friend)]
    assert all(tokens) and tokens[0] != tokens[1]
    shot_friend("group-joined")

    # The leader's screen picks the friend up by polling.
    members(leader, 2)
    assert leader.locator("#members .member.me .badge").count() == 1
    shot_leader("group-two-members")

    # A new link revokes the old one: opened in a third browser, the old link says so clearly.
    leader.click("#new-invite")
    leader.wait_for_function(
        "() => "
        f"document.getElementById('invite-link').value !== {link!r}"
        " && document.getElementById('invite-link').value.includes('/#/join/')"
    )
    stranger_ctx, stranger, stranger_errors = new_page(browser, 1200, 860)
    shot_stranger = Shots(stranger, artifacts, "invite-revoked")
    stranger.goto(link)
    stranger.wait_for_selector("#toast.show.error")
    refused = ENGLISH["error.bad_invite"]
    assert refused == "This invite link no longer works. Ask for a new one."
    assert stranger.locator("#toast").inner_text() == refused
    stranger.wait_for_function(
        f"() => document.getElementById('alert').textContent === {refused!r}"
    )
    stranger.wait_for_selector("#play")  # back home, in no group
    assert stranger.evaluate("location.hash") == "#/"
    assert stranger.locator("#group").is_visible()
    shot_stranger("error")
    # The refused join is a 404 in the console; nothing else may go wrong.
    assert all("status of 404" in e for e in stranger_errors), stranger_errors
    members(leader, 2)  # nobody joined
    stranger_ctx.close()

    # The leader starts: both friends go to the same lobby, then (the bots fill the rest of the
    # seats within a moment) to the same tournament.
    leader.click("#start")
    for page in (leader, friend):
        page.wait_for_function(
            "() => ['lobby', 't'].includes(document.body.dataset.screen)", timeout=15_000
        )
    for page in (leader, friend):
        page.wait_for_function("() => location.hash.startsWith('#/t/')", timeout=30_000)
        page.wait_for_selector("#lives .life.you")
    assert leader.evaluate("location.hash") == friend.evaluate("location.hash")
    assert leader.locator("#lives .life").count() == 8
    shot_leader("tournament")
    shot_friend("tournament")

    assert not leader_errors, leader_errors
    assert not friend_errors, friend_errors
    leader_ctx.close()
    friend_ctx.close()


def test_d11_a_member_who_becomes_the_leader_gets_the_leaders_buttons_and_leaving_asks_first(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    """D11: when the leader leaves, the member who becomes the leader gets Start and New link
    at the group screen's next read, without a reload; "Leave group" asks first, and only its
    risky answer leaves."""
    context, page, errors = new_page(browser, 360, 740)
    shot = Shots(page, artifacts, "group-leader")
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    table = Table(quiet, Puppet(quiet.url, nickname="Leader Lea"))
    join_in_browser(page, table)
    members(page, 2)
    assert page.locator("#start").count() == 0 and page.locator("#new-invite").count() == 0
    table.leader.call("DELETE", f"/v1/groups/{table.group['id']}/members/{table.leader.id}")
    page.wait_for_selector("#start", timeout=5_000)  # the next 2 s poll, no reload
    assert page.locator("#new-invite").is_visible()
    members(page, 1)
    assert page.locator("#members .member.me .badge").text_content() == ENGLISH["group.leader"]
    shot("new-leader")
    old = page.locator("#invite-link").input_value()
    page.click("#new-invite")
    page.wait_for_function(
        f"() => document.getElementById('invite-link').value !== {old!r}", timeout=5_000
    )

    # Leaving asks first; "Stay" (the focused, safe answer) keeps the player in the group.
    page.click("#leave-group")
    page.wait_for_selector("#leave-group-dialog")
    assert page.locator("#leave-group-dialog-title").inner_text() == ENGLISH["group.leave.title"]
    assert page.evaluate("document.activeElement.id") == "leave-group-dialog-no"
    fits(page, "the question before leaving the group")
    shot("leave-question")
    page.keyboard.press("Enter")
    page.wait_for_selector("#leave-group-dialog", state="detached")
    assert page.evaluate("location.hash") == "#/group"
    page.click("#leave-group")
    page.click("#leave-group-dialog-yes")
    page.wait_for_selector("#play")
    assert page.evaluate("location.hash") == "#/"
    assert not errors, errors
    context.close()
