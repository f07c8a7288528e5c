"""The coach's browser tests' library (tests/web/test_coach.py): a finished tournament in which
every duel of the browser's player has a few rows of ordinary words before the opponent finds
the secret, the page's analysis requests, and what an open sheet must show (the API's analysis,
row by row and per player). A library, not a test module.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import wordlists
from tests.web.conftest import Live
from tests.web.pages import new_page
from tests.web.puppets import Puppet, Table

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}
ANALYSIS = re.compile(r"/v1/tournaments/[^/]+/duels/([^/]+)/analysis$")


@dataclass
class Coached:
    table: Table
    me: Puppet
    token: str
    tid: str

    def analysis(self, duel_id: str) -> Any:
        return self.me.call("GET", f"/v1/tournaments/{self.tid}/duels/{duel_id}/analysis")

    def history(self) -> Any:
        return self.me.call("GET", f"/v1/tournaments/{self.tid}/history")

    def my_duels(self) -> list[Any]:
        """The browser's player's duels, from the history: (round, duel) in order."""
        out = []
        for rnd in self.history()["rounds"]:
            duel = next((d for d in rnd["duels"] if self.me.id in d["players"]), None)
            if duel is not None:
                out.append((rnd["number"], duel))
        return out


def word(table: Table, duel: Any, n: int) -> str:
    """An ordinary word of the duel's length (a possible secret, not this one)."""
    secret = "".join(duel.secret)
    words = ["".join(w) for w in wordlists.secret_words(table.language, len(duel.secret))]
    words = [w for w in words if w != secret]
    return words[(n * 7919 + 11) % len(words)]


def rows_then_found(table: Table, tid: str, me: Puppet, duel: Any, rows: int = 3) -> None:
    """`rows` rows of ordinary words, then the opponent (a puppet) finds the secret."""
    opponent = table.puppet(duel.opponent(me.id))
    assert opponent is not None
    for i in range(rows):
        mover = me if duel.players[i % 2] == me.id else opponent
        mover.play(tid, word(table, duel, i + sum(map(ord, duel.id))), duel_id=duel.id)
    if duel.players[rows % 2] == me.id:
        me.play(tid, word(table, duel, 99), duel_id=duel.id)
    opponent.play(tid, table.secret(tid, duel), duel_id=duel.id)


def play_coached(quiet: Live) -> Coached:
    """A group of 8 plays a tournament to its end; the browser's player ("me", a puppet whose
    token goes to the browser) loses each of its duels after a few rows."""
    me = Puppet(quiet.url, nickname="Konstantin Coach")
    table = Table(quiet, Puppet(quiet.url, nickname="Leader Lea"), ["Ana", "Ben", "Cleo"])
    table.add(Puppet(quiet.url, nickname="Dmitri Petrovich"))
    table.add(Puppet(quiet.url, nickname="Eve"))
    table.add(Puppet(quiet.url, nickname="Farid"))
    table.add(me)
    table.puppets.remove(me)
    tid = table.start()
    number = 1
    while table.stored(tid).finished_at is None:
        rnd = table.wait_round(tid, number)
        for duel in rnd.duels:
            if table.duel_of_id(tid, duel.id).ended_at is not None:
                continue
            if me.id in duel.players:
                rows_then_found(table, tid, me, duel)
            else:
                table.first_puppet_wins(tid, duel)
        number += 1
    return Coached(table, me, str(me.client.token), tid)


def signed_in(browser: Any, coached: Coached, size: dict[str, int], locale: str = "en-US") -> Any:
    context, page, errors = new_page(browser, size["width"], size["height"], locale=locale)
    page.add_init_script(f"localStorage.setItem('wt.token', {coached.token!r})")
    return context, page, errors


def analysis_requests(page: Any) -> list[tuple[str, int]]:
    """Every analysis the page asks for, as (duel id, status), as the answers come."""
    seen: list[tuple[str, int]] = []

    def answered(response: Any) -> None:
        m = ANALYSIS.search(response.url.split("?")[0])
        if m:
            seen.append((m[1], response.status))

    page.on("response", answered)
    return seen


# ---------------------------------------------------------------- what it shows


def expected_text(x: float) -> str:
    """An expected count as the page writes it in English: one decimal at most (coach.js)."""
    shown = math.floor(x * 10 + 0.5) / 10
    return f"≈ {shown:g}"


def shows_the_analysis(page: Any, a: Any, you: str) -> None:
    """The open sheet shows `a` (the API's analysis), row by row and per player."""
    page.wait_for_selector(f'#coach[data-duel="{a["duel"]}"] #coach-rows')
    rows = page.locator("#coach-rows .coach-row")
    assert rows.count() == len(a["rows"])
    secret = page.locator("#coach .coach-outcome .msecret .mt").all_inner_texts()
    assert secret == [tile.upper() for tile in a["secret"]]
    for k, r in enumerate(a["rows"]):
        row = rows.nth(k)
        assert row.get_attribute("data-row") == str(r["row"])
        assert row.locator(".cr-n").inner_text() == f"Row {r['row'] + 1}"
        who = row.locator(".cr-name .sr-only").text_content()
        assert (who == "You") == (r["by"] == you)
        if r["skipped"]:
            assert row.locator(".cr-skipped").count() == 1
            continue
        assert row.locator(".cr-word .mt").all_inner_texts() == [t.upper() for t in r["tiles"]]
        marks = row.locator(".cr-word .mt").evaluate_all("els => els.map(e => e.className)")
        classes = {"G": "mG", "Y": "mY", "-": "mX"}
        assert [classes[m] in c.split() for m, c in zip(r["marks"], marks, strict=True)] == [
            True
        ] * len(marks)
        assert row.locator(".cr-before").inner_text() == str(r["before"])
        after = row.locator(".cr-after").inner_text()
        assert after == (str(r["after"]) if r["after"] else "found")
        assert row.locator(".score.skill .score-n").inner_text() == str(r["skill"])
        assert row.locator(".score.luck .score-n").inner_text() == str(r["luck"])
        played = row.locator(".cr-played-exp").inner_text()
        assert played == expected_text(r["played_expected"])
        if r["best"] == r["tiles"]:
            assert row.locator(".cr-best.same").count() == 1
        else:
            best = row.locator(".cr-best .mt.suggest").all_inner_texts()
            assert best == [t.upper() for t in r["best"]]
            assert row.locator(".cr-best-exp").inner_text() == expected_text(r["best_expected"])
        # A screen reader hears the row in one sentence, with the same numbers.
        said = row.locator("p.sr-only").text_content() or ""
        assert f"Skill {r['skill']} of 100, luck {r['luck']} of 100." in said
        assert "".join(r["tiles"]).upper() in said
    cards = page.locator("#coach-summary .coach-player")
    assert cards.count() == 2
    # The viewer's own summary first, as the title says "You vs …".
    summary = sorted(a["players_summary"], key=lambda s: s["player"] != you)
    for k, s in enumerate(summary):
        card = cards.nth(k)
        assert card.get_attribute("data-player") == s["player"]
        for kind in ("skill", "luck"):
            want = "—" if s[kind] is None else str(s[kind])
            assert card.locator(f".score.{kind} .score-n").inner_text() == want
        words = card.locator(".cp-words").inner_text()
        assert words == (
            f"{s['guesses']} word{'s' if s['guesses'] > 1 else ''} played"
            if s["guesses"]
            else "No word played"
        )
    assert page.locator("#coach-explain > p").count() == 2  # skill and luck, in words
    assert page.locator("#coach-more p").count() == 2  # the counts, a click away


def sheet_fits(page: Any, where: str) -> None:
    """Nothing in the sheet sticks out sideways (it scrolls only up and down)."""
    wide = page.evaluate(
        """() => {
            const d = document.getElementById('coach');
            const right = d.getBoundingClientRect().right + 0.5;
            const out = [...d.querySelectorAll('*')]
                .filter((el) => el.getClientRects().length && !el.closest('.sr-only'))
                .filter((el) => el.getBoundingClientRect().right > right)
                .map((el) => `${el.tagName}.${el.className} ${el.textContent.slice(0, 30)}`);
            if (d.scrollWidth > d.clientWidth) out.push(`scrolls: ${d.scrollWidth} px`);
            return out.slice(0, 5);
        }"""
    )
    assert not wide, f"{where}: {wide}"
