"""R9: the lively wait features a duel, in Debian's chromium. While the player waits (their duel
over, a bye, or out and watching), one live duel shows full size without a click — its board,
whose turn and the clock, both players' lives — the closest race first; the small previews stay
below it (a phone) or beside it (a desktop), any of them can be pinned, and when the featured
duel ends the next closest race takes its place by itself. It costs no request of its own: the
state is polled as the server advises for a player of the featured duel (?watch=), and the
round's end still shows the next intro at once (R2).

Every poll the page makes is logged in the page itself (fetch wrapped by an init script, with the
answer's Poll-Interval), so the test can tell an advised poll from an early one.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from core.timing import Timing
from tests.web.conftest import INTRO_MS, PUPPET_RECONNECT_MS, Live, serving
from tests.web.pages import Shots, join_in_browser, new_page
from tests.web.puppets import Puppet, Table, wait_until
from tests.web.screen_checks import fits

pytestmark = pytest.mark.slow

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}
NAMES = ["NobleMoose58", "NobleMouse91", "SilentNarwhal15", "Dmitri Petrovich", "Eve", "Farid"]

# Every request of the page, with when it was sent and answered (page time, ms) and the answer's
# Poll-Interval: a poll is "advised" when it was sent no earlier than its advice said.
LOG_FETCHES = """
window.__fetches = [];
const original = window.fetch;
window.fetch = async (input, init) => {
  const method = (init && init.method) || 'GET';
  const entry = { url: String(input), method, sent: performance.now() };
  window.__fetches.push(entry);
  const response = await original(input, init);
  entry.arrived = performance.now();
  entry.status = response.status;
  entry.advice = response.headers.get('Poll-Interval');
  return response;
};
"""


def fetches(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("() => window.__fetches"))


def polls(page: Any, since: float = 0.0) -> list[dict[str, Any]]:
    return [
        f
        for f in fetches(page)
        if "/state" in f["url"] and f["method"] == "GET" and f["sent"] >= since
    ]


def watched(poll: dict[str, Any]) -> str | None:
    values = parse_qs(urlsplit(poll["url"]).query).get("watch")
    return values[0] if values else None


def early_polls(seen: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Polls sent before the previous answer's advice had run out (50 ms of slack)."""
    early = []
    for before, after in itertools.pairwise(seen):
        if before.get("arrived") is None or not before.get("advice"):
            continue
        due = before["arrived"] + float(before["advice"]) * 1000
        if after["sent"] < due - 50:
            early.append((before, after))
    return early


def shows(page: Any, duel_id: str, timeout: int = 8_000) -> None:
    """The featured duel is `duel_id`."""
    try:
        page.wait_for_function(
            f"() => document.getElementById('featured')?.dataset.duel === {duel_id!r}",
            timeout=timeout,
        )
    except Exception as exc:
        shown = page.evaluate(
            "() => [document.getElementById('featured')?.dataset.duel,"
            " [...document.querySelectorAll('.mini-duel')].map(m => m.id + ':'"
            " + m.querySelectorAll('.mrow:not(.current)').length)]"
        )
        raise AssertionError(f"featured is not {duel_id}: {shown}") from exc


@pytest.fixture(scope="module")
def patient() -> Iterator[Live]:
    """No bots, and turns of a minute: no turn times out while the test looks (a timed-out turn
    is a row, and would change which race is the closest)."""
    timing = Timing(turn_ms=60_000, intro_ms=INTRO_MS, reconnect_ms=PUPPET_RECONNECT_MS)
    with serving(timing, False) as app:
        yield app


def test_r9_the_wait_features_the_closest_race_full_size_and_moves_on_by_itself(
    patient: Live, browser: Any, artifacts: Path
) -> None:
    quiet = patient
    context, page, errors = new_page(browser, **PHONE)
    page.add_init_script(LOG_FETCHES)
    shot = Shots(page, artifacts, "featured")
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    table = Table(quiet, Puppet(quiet.url), NAMES)
    me = join_in_browser(page, table)
    tid = table.start()
    page.wait_for_function(f"() => location.hash === '#/t/{tid}'", timeout=8_000)

    # The three other duels get 1, 2 and 3 rows; then ours ends (we find the word), so that the
    # wait begins with the races as they are (a featured duel stays while it is live).
    first = table.wait_round(tid, 1)
    mine = first.duel_of(me.id)
    assert mine is not None
    others = [d for d in first.duels if d.id != mine.id]
    for k, duel in enumerate(others):
        for n in range(k + 1):
            table.miss(tid, duel.players[n % 2], n)
    if mine.players[0] != me.id:
        table.miss(tid, mine.players[0])
    # In the page, as a person plays: the guess's answer is the page's next state (a guess sent
    # by the API would leave the page asleep until its minute-long turn ran out).
    page.wait_for_selector("#duel.my-turn")
    page.keyboard.type(table.secret(tid, mine))
    page.keyboard.press("Enter")
    closest = others[-1]  # the fewest rows left: 9 of 12

    # Full size without a click: the closest race, its board, whose turn, the clock, the lives.
    page.wait_for_selector("#waiting #featured")
    page.wait_for_function(
        f"() => document.getElementById('featured')?.dataset.duel === {closest.id!r}"
        " && document.querySelectorAll('#featured-board .brow.played').length === 3"
    )
    started = page.evaluate("performance.now()")
    tile = page.locator("#featured-board .tile").first.bounding_box()
    assert tile is not None and tile["width"] >= 36, tile  # the duel's own size, not a preview's
    head = page.locator("#featured").bounding_box()
    assert head is not None and head["y"] < PHONE["height"] - 120  # on the first screen
    assert page.locator("#featured .pcard").count() == 2
    assert page.locator("#featured .heart.full").count() == 6
    to_play = table.duel_of_id(tid, closest.id).to_play
    assert page.locator("#featured-turn").inner_text() == f"{name_of(table, to_play)}'s turn"
    assert re.fullmatch(r"\d+ s", page.locator("#featured-clock").inner_text())
    assert page.locator("#featured .pcard.turn").count() == 1
    # The previews stay, below it on a phone: all four duels, the featured one marked.
    assert page.locator("#duel-grid .mini-duel").count() == 4
    assert page.locator(f"#mini-{closest.id}.active").count() == 1
    grid = page.locator("#duel-grid").bounding_box()
    assert grid is not None and grid["y"] > head["y"] + head["height"] - 1
    fits(page, "the featured duel")
    shot("phone")
    page.set_viewport_size(DESKTOP)
    grid, box = page.locator("#duel-grid").bounding_box(), page.locator("#featured").bounding_box()
    assert grid is not None and box is not None
    assert grid["x"] >= box["x"] + box["width"] - 1  # beside it on a desktop
    shot("desktop")
    page.set_viewport_size(PHONE)

    # Any preview pins its duel full size; the polls follow it (?watch=), and Unpin goes back.
    pinned = others[0]
    page.click(f"#mini-{pinned.id}")
    shows(page, pinned.id)
    assert page.locator(f"#mini-{pinned.id}").get_attribute("aria-pressed") == "true"
    wait_until(lambda: any(watched(p) == pinned.id for p in polls(page, started)), "?watch=pinned")
    shot("pinned-phone")
    page.click("#featured-unpin")
    shows(page, closest.id)

    # The featured duel ends: its result shows a moment, then the next race takes its place.
    win_now(table, tid, closest.id)
    page.wait_for_selector("#featured.over .msecret")
    shot("ended-phone")
    page.wait_for_function(
        f"() => document.getElementById('featured')?.dataset.duel === {others[1].id!r}",
        timeout=8_000,
    )
    assert page.locator("#featured.live").count() == 1

    # What it cost: every poll of the wait was the server's advice for the featured duel, but for
    # one at once after the featured duel changed (the advice had been for another duel).
    seen = polls(page, started)
    assert seen and all(watched(p) for p in seen), [p["url"] for p in seen]
    early = early_polls(seen)
    changes = sum(1 for a, b in itertools.pairwise(seen) if watched(a) != watched(b))
    assert len(early) <= changes, [(watched(a), watched(b)) for a, b in early]
    others_requested = [
        f["url"] for f in fetches(page) if f["sent"] >= started and "/state" not in f["url"]
    ]
    assert all("/history" in url for url in others_requested), others_requested
    seconds = (page.evaluate("performance.now()") - started) / 1000
    print(
        f"\nwaiting {seconds:.1f} s with a featured duel: {len(seen)} state polls, "
        f"{len(early)} early (at {changes} changes of the featured duel), "
        f"{len(others_requested)} other requests"
    )

    # The round ends: the next intro shows at once (R2), with no wait for a poll.
    for duel in others[:2]:
        win_now(table, tid, duel.id)
    table.wait_round(tid, 2)
    page.wait_for_selector("#intro", timeout=2_500)
    for puppet in [me, *table.puppets]:
        puppet.leave(tid)
    assert not errors, errors
    context.close()


def win_now(table: Table, tid: str, duel_id: str) -> None:
    """The duel's player whose turn it is finds the word."""
    to_play = table.duel_of_id(tid, duel_id).to_play
    assert to_play is not None
    table.win(tid, to_play)


def name_of(table: Table, player_id: str | None) -> str:
    puppet = table.puppet(player_id or "")
    assert puppet is not None
    return str(puppet.me()["nickname"])


def test_r9_the_closest_race_counts_the_rows_left_and_what_is_at_stake(
    quiet: Live, browser: Any
) -> None:
    """The choice itself (screens/tournament/featured.js), on made-up duels: fewer rows left is
    closer, a player on their last life counts as two rows nearer, ties go by id; a featured duel
    stays while live (a closer race does not take its place mid-way), stays 3 s once ended, and a
    pinned duel wins until it ends."""
    context, page, errors = new_page(browser, **PHONE)
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    result = page.evaluate(
        """async () => {
            const f = await import('/static/screens/tournament/featured.js');
            const row = [['a'], ['-']];
            const duel = (id, rows, players, result = null) =>
                ({ id, players, board: Array(rows).fill(row), result });
            const lives = { a: 3, b: 3, c: 1, d: 3, e: 3, f: 3, g: 2, h: 2 };
            const players = Object.entries(lives).map(([id, n]) => ({ id, lives: n }));
            const duels = [
                duel('r1d1', 2, ['a', 'b']),   // 10 rows left
                duel('r1d2', 1, ['c', 'd']),   // 11 left, c on the last life: 9
                duel('r1d3', 3, ['e', 'f']),   // 9 left: ties with r1d2, the id decides
                duel('r1d4', 4, ['g', 'h'], { kind: 'win' }),  // over: never featured
            ];
            const order = f.closestRaces(duels, (id) => lives[id]).map((d) => d.id);
            const spot = new f.Spotlight();
            const state = { players, duels };
            const picks = [spot.update(state, 0)];
            duels[0].board = Array(8).fill(row);  // r1d1 becomes the closest: no jump mid-way
            picks.push(spot.update(state, 1000));
            duels[1].result = { kind: 'win' };  // the featured one ends: held 3 s, then the next
            picks.push(spot.update(state, 2000), spot.update(state, 4999));
            picks.push(spot.update(state, 5000));
            spot.pin(duels[2]);
            picks.push(spot.update(state, 6000), spot.watchId(state));
            duels[2].result = { kind: 'draw' };
            picks.push(spot.update(state, 7000), spot.update(state, 10000));
            return { order, picks };
        }"""
    )
    assert result["order"] == ["r1d2", "r1d3", "r1d1"]
    assert result["picks"] == [
        "r1d2",  # 9 with the last life at stake, before r1d3's 9 by id
        "r1d2",  # still r1d2 when r1d1 draws closer
        "r1d2",  # ended: held
        "r1d2",
        "r1d1",  # 3 s later: the closest live race
        "r1d3",  # pinned
        "r1d3",  # and the polls follow it
        "r1d3",  # ended: held
        "r1d1",  # then back to the closest race
    ]
    assert not errors, errors
    context.close()
