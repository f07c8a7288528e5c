"""How much of the wait a player spends looking at a full-size live duel (R9's featured duel):
whole tournaments in Debian's chromium against the practice bots, at shortened timers, with the
page logging what it shows ten times a second. Prints the figures docs/client.md reports.

    .venv/bin/python -m tests.web.wait_share [tournaments] [width] [height]

The timers are a third of the real ones (10 s turns, a 3 s intro), and every player thinks as
the practice bots of medium skill do at that pace: the bots themselves, and the browser's
player, whose words a bot's brain picks from the board and who types them on the page.
"Waiting" is the time the player is still in the tournament but not in an intro or their own
duel; "watching" the time after they are out, until the results. A sample counts as "looking
at a live duel" when the featured duel is live and its board is on screen.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from typing import Any

from api.bots.brain import DuelBrain
from api.bots.client import lexicon
from api.service.tournaments import with_contacts
from core.bots import MEDIUM, think_seconds
from core.timing import Timing
from tests.web.conftest import CHROMIUM, CHROMIUM_FLAGS, Live, serving
from tests.web.pages import new_page

# A third of the real pace: 10 s turns instead of 30, an intro of 3 s instead of 6; everyone
# thinks their usual share of the turn (house bots think as core.bots says).
TIMING = Timing(turn_ms=10_000, intro_ms=3_000, reconnect_ms=60_000)
TURN_S = TIMING.turn_ms / 1000
BUDGET_S = 600

SAMPLER = """
window.__samples = [];
window.__polls = [];
const original = window.fetch;
window.fetch = async (input, init) => {
  const url = String(input);
  const poll = url.includes('/state') && (!init || !init.method || init.method === 'GET');
  const sent = performance.now();
  const response = await original(input, init);
  if (poll) window.__polls.push({ url, sent, arrived: performance.now(),
                                  advice: response.headers.get('Poll-Interval') });
  return response;
};
setInterval(() => {
  const featured = document.getElementById('featured');
  const board = document.getElementById('featured-board');
  const box = board && board.getBoundingClientRect();
  const onScreen = Boolean(box) && box.top < innerHeight - 60 && box.bottom > 60;
  window.__samples.push([performance.now(), document.body.dataset.view || '',
                         Boolean(featured && featured.classList.contains('live') && onScreen),
                         featured ? featured.dataset.duel : null]);
}, 100);
"""


def my_duel(live: Live, tid: str, player: str) -> Any:
    """The player's live duel as stored (the brain reads only its public board)."""
    record = live.service.ctx.repo.get_tournament(tid)
    if record is None:
        return None
    duel = with_contacts(record).rounds[-1].duel_of(player)
    return None if duel is None or duel.ended_at is not None else duel


def play_one(
    live: Live, browser: Any, rng: random.Random, width: int, height: int
) -> dict[str, Any]:
    context, page, _errors = new_page(browser, width, height)
    page.add_init_script(SAMPLER)
    page.goto(live.url)
    page.wait_for_selector("#play")
    page.click("#play")
    page.wait_for_function("() => location.hash.startsWith('#/t/')", timeout=60_000)
    tid = page.evaluate("location.hash").split("/")[2]
    me = str(page.evaluate("localStorage.getItem('wt.token')")).split(".", 1)[0]
    acted: set[tuple[str, int]] = set()
    brains: dict[str, DuelBrain] = {}
    end = time.monotonic() + BUDGET_S
    while time.monotonic() < end:
        view = page.evaluate("document.body.dataset.view || ''")
        if view == "results":
            break
        duel = my_duel(live, tid, me) if view == "duel" else None
        if duel is not None and page.locator("#duel.my-turn").count():
            key = (duel.id, len(duel.turns))
            if key not in acted:
                acted.add(key)
                brain = brains.get(duel.id)
                if brain is None:
                    words = lexicon("en", len(duel.secret))
                    brain = brains[duel.id] = DuelBrain(words, MEDIUM, rng)
                brain.observe([(t.word, t.marks) for t in duel.turns if t.word is not None])
                think = think_seconds(MEDIUM, TURN_S, rng)
                if think is not None:  # else the turn runs out, as a person's sometimes does
                    page.wait_for_timeout(think * 1000)
                    if page.locator("#duel.my-turn").count():
                        page.keyboard.type("".join(brain.choose()))
                        page.keyboard.press("Enter")
        page.wait_for_timeout(150)
    samples = page.evaluate("window.__samples")
    polls = page.evaluate("window.__polls")
    context.close()
    return summarise(samples, polls)


def summarise(samples: list[list[Any]], polls: list[dict[str, Any]]) -> dict[str, Any]:
    step = 0.1
    out: dict[str, Any] = {
        "waiting": 0.0,
        "waiting_live": 0.0,
        "watching": 0.0,
        "watching_live": 0.0,
        "duel": 0.0,
        "intro": 0.0,
    }
    changes = 0
    last = None
    for _t, view, live_shown, featured in samples:
        if view in ("waiting", "out"):
            kind = "waiting" if view == "waiting" else "watching"
            out[kind] += step
            if live_shown:
                out[f"{kind}_live"] += step
            if featured != last and featured is not None:
                changes += 1
            last = featured
        elif view in ("duel", "intro"):
            out[view] += step
    waited = [p for p in polls if "watch=" in p["url"]]
    early = 0
    for before, after in itertools.pairwise(waited):
        if (
            before.get("advice")
            and after["sent"] < before["arrived"] + float(before["advice"]) * 1000 - 50
        ):
            early += 1
    seconds = max(1.0, out["waiting"] + out["watching"])
    out.update(
        polls=len(waited),
        early=early,
        changes=changes,
        per_minute=round(len(waited) / seconds * 60, 1),
    )
    return out


def main(argv: list[str]) -> None:
    tournaments = int(argv[0]) if argv else 3
    width = int(argv[1]) if len(argv) > 1 else 360
    height = int(argv[2]) if len(argv) > 2 else 740
    from playwright.sync_api import sync_playwright

    rng = random.Random(23)
    totals: dict[str, float] = {}
    with serving(TIMING, True) as live, sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        for n in range(tournaments):
            one = play_one(live, browser, rng, width, height)
            for k, v in one.items():
                totals[k] = totals.get(k, 0.0) + float(v)
            print(
                f"tournament {n + 1}: waiting {one['waiting']:.0f} s, of it a live duel full "
                f"size {share(one['waiting_live'], one['waiting'])}; out and watching "
                f"{one['watching']:.0f} s, {share(one['watching_live'], one['watching'])}; own "
                f"duels {one['duel']:.0f} s, intros {one['intro']:.0f} s; {one['polls']} polls "
                f"while waiting or watching ({one['per_minute']}/min), {one['early']} early at "
                f"{one['changes']} changes of the featured duel",
                flush=True,
            )
        browser.close()
    waited = totals["waiting"] + totals["watching"]
    print(
        f"all {tournaments}: waiting {share(totals['waiting_live'], totals['waiting'])} on a live "
        f"duel, watching {share(totals['watching_live'], totals['watching'])}, together "
        f"{share(totals['waiting_live'] + totals['watching_live'], waited)} of {waited:.0f} s; "
        f"{totals['polls']:.0f} polls, {totals['early']:.0f} early at "
        f"{totals['changes']:.0f} changes"
    )


def share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "—"


if __name__ == "__main__":
    main(sys.argv[1:])
