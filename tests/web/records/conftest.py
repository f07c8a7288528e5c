"""The records' browser tests (tests/web/records/): statistics, history, leaderboards, the
public results and the share (R7, R8, R15, R16, D4), and every language at 360 px (D17), after
tournaments played through puppets; every screen is compared with the API's own answer.

The browser's player plays two tournaments as a puppet (its token then goes to the browser):
the first it goes out of, having won its round-1 duel on its 2nd turn; the second it wins when
everybody else leaves (D8: forfeits, which the guess distribution leaves out). Seven group-mates
walking over is a rating farm's pattern (D19): fair play flags the player, keeping them off the
leaderboards, until an operator clears them, as the fixture does before the boards' refresh.
`played` plays them once for the whole folder (scope "package"), for every test here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from api.cli.fairplay import decide
from api.service.fairplay import store as fairplay_store
from tests.web.conftest import Live
from tests.web.pages import new_page
from tests.web.puppets import Puppet, Table

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1200, "height": 900}
NAMES = ["Ana", "Ben", "Cleo", "Dmitri", "Eve", "Farid"]


@dataclass
class Played:
    table: Table
    me: Puppet
    token: str
    first: str  # went out of it, having won round 1 on the 2nd turn
    second: str  # won it: everyone else left

    def api(self, path: str) -> Any:
        return self.me.call("GET", path)


def win_on_second_turn(table: Table, tid: str, me: Puppet) -> None:
    duel = table.duel_of(tid, me.id)
    assert duel is not None
    opponent = duel.opponent(me.id)
    if duel.players[0] == me.id:
        me.play(tid, table.filler(duel, 1))
        table.miss(tid, opponent, 2)
    else:
        table.miss(tid, opponent, 1)
        me.play(tid, table.filler(duel, 2))
        table.miss(tid, opponent, 3)
    me.play(tid, table.secret(tid, duel))


def play_out(table: Table, tid: str, me: Puppet) -> None:
    """Round 1: the browser's player wins on its 2nd turn; then it loses every duel until it is
    out, and the first puppet to play wins every other duel."""
    number = 1
    while table.stored(tid).finished_at is None:
        rnd = table.wait_round(tid, number)
        for duel in rnd.duels:
            if table.duel_of_id(tid, duel.id).ended_at is not None:
                continue
            if me.id in duel.players and number == 1:
                win_on_second_turn(table, tid, me)
            elif me.id in duel.players:
                if duel.players[0] == me.id:
                    me.play(tid, table.filler(duel, 1), duel_id=duel.id)
                table.first_puppet_wins(tid, duel)  # me is no puppet: the opponent wins
            else:
                table.first_puppet_wins(tid, duel)
        number += 1


@pytest.fixture(scope="package")
def played(quiet: Live) -> Iterator[Played]:
    me = Puppet(quiet.url, nickname="Rita Records")
    table = Table(quiet, Puppet(quiet.url, nickname="Leader Lea"), NAMES)
    table.add(me)
    table.puppets.remove(me)
    first = table.start()
    play_out(table, first, me)
    second = table.start()
    table.wait_round(second, 1)
    for puppet in table.puppets:
        puppet.leave(second)
    table.wait_finished(second)
    records = fairplay_store(quiet.service.ctx.repo)
    flagged = records.get(me.id)
    assert flagged is not None and flagged.status == "flagged" and "farm" in flagged.reasons
    decide(records, me.id, "clear", "records-test", quiet.service.ctx.now())
    # The sweep renews the leaderboards' snapshot within a minute: now, here.
    quiet.service.leaderboards.refresh()
    yield Played(table, me, str(me.client.token), first, second)


def signed_in(
    browser: Any, played: Played, size: dict[str, int], locale: str = "en-US", **options: Any
) -> tuple[Any, Any, list[str]]:
    context, page, errors = new_page(browser, size["width"], size["height"], locale, **options)
    page.add_init_script(f"localStorage.setItem('wt.token', {played.token!r})")
    return context, page, errors
