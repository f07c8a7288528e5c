"""Keys in a duel, in Debian's chromium.

- Whatever has the focus (the Leave button, the palette toggle), Enter sends the typed word and
  Backspace deletes a letter; leaving asks first, and Enter alone cannot say yes (R20).
- The keyboard recolours only once the new row's tiles have finished flipping.
- A physical keyboard types every tile of every language as the server reads it (D12): digraph
  tiles from their letters (Uzbek ch, sh, oʻ, gʻ with any apostrophe), ligatures (œ, æ, ĳ),
  ё, ß and the accents that fold; checked for all 13 languages against wordlists.normalise,
  and end to end in an Uzbek duel.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import wordlists
from tests.web.conftest import Live
from tests.web.pages import Shots, new_page
from tests.web.puppets import Puppet, Table

pytestmark = pytest.mark.slow


def seated(
    live: Live, browser: Any, language: str = "en"
) -> tuple[Any, Any, list[str], Table, Puppet, str]:
    """The browser's player and 7 puppets in a group; the tournament started and on screen.
    With motion (the keys wait for the row's flip, which reduced motion skips)."""
    context, page, errors = new_page(browser, 1000, 860, reduced_motion="no-preference")
    page.goto(live.url)
    page.wait_for_selector("#play")
    table = Table(live, Puppet(live.url), [f"Pal {i}" for i in range(6)], language=language)
    page.goto(table.invite)
    page.wait_for_selector("#members")
    me = Puppet(live.url, token=page.evaluate("localStorage.getItem('wt.token')"))
    tid = table.start()
    page.wait_for_function(f"() => location.hash === '#/t/{tid}'", timeout=8_000)
    return context, page, errors, table, me, tid


def my_turn_on_screen(page: Any, table: Table, tid: str, me: Puppet) -> Any:
    """Let the opponent (a puppet) play until it is our turn; the duel as stored."""
    duel = table.duel_of(tid, me.id)
    assert duel is not None
    opponent = duel.opponent(me.id)
    stored = table.duel_of(tid, me.id)
    if stored is not None and stored.to_play == opponent:
        table.miss(tid, opponent, len(stored.turns))
    page.wait_for_selector("#duel.my-turn", timeout=10_000)
    return table.duel_of(tid, me.id)


def rows(page: Any) -> int:
    return int(page.locator("#board .brow.played").count())


def guessed(page: Any, before: int, word: str) -> None:
    """Our guess is on the board: a played row (not a timed-out turn) that spells `word`."""
    page.wait_for_function(
        f"() => document.querySelectorAll('#board .brow.played').length > {before}",
        timeout=4_000,
    )
    row = page.locator("#board .brow.played").nth(before)
    assert "skipped" not in (row.get_attribute("class") or ""), "the turn ran out instead"
    assert "".join(row.locator(".tile > span[aria-hidden]").all_inner_texts()) == word.upper()


def typed(page: Any) -> list[str]:
    return list(page.locator("#current-row .tile.filled").all_inner_texts())


def test_r20_enter_sends_the_word_and_backspace_deletes_whatever_has_the_focus(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors, table, me, tid = seated(quiet, browser)
    shot = Shots(page, artifacts, "keys")
    duel = my_turn_on_screen(page, table, tid, me)
    before = rows(page)
    seen_letters = {tile for turn in duel.turns if turn.word for tile in turn.word}
    word = next(
        w
        for w in wordlists.accepted_words("en", len(duel.secret))
        if w != duel.secret
        and set(w) - seen_letters
        and len(wordlists.normalise("en", "".join(w))) == len(w)
    )
    text = "".join(word)

    # Focus on Leave (as two Tabs would put it): letters type, Backspace deletes, Enter sends.
    page.focus("#t-leave")
    page.keyboard.type(text[:2])
    assert typed(page) == [c.upper() for c in text[:2]]
    page.keyboard.press("Backspace")
    assert typed(page) == [text[0].upper()]
    page.keyboard.type(text[1:])
    shot("typed-with-focus-on-leave")
    page.keyboard.press("Enter")
    guessed(page, before, text)
    assert page.locator("#leave-dialog").count() == 0
    assert page.evaluate("document.activeElement.id") == "t-leave"

    # The keyboard keeps a new letter's colour until the row's tiles have flipped.
    fresh = sorted(set(word) - seen_letters)[0]
    key = f'#keyboard [data-key="{fresh}"]'
    marks = "['mG', 'mY', 'mX'].some((c) => el.classList.contains(c))"
    assert not page.eval_on_selector(key, f"(el) => {marks}"), "coloured while still flipping"
    page.wait_for_function(
        f"() => {{ const el = document.querySelector('{key}'); return {marks}; }}", timeout=3_000
    )

    # Focus on the palette toggle: Enter sends the word, the palette stays.
    duel = my_turn_on_screen(page, table, tid, me)
    before = rows(page)
    palette = page.evaluate("document.documentElement.classList.contains('cb')")
    page.focus("#duel-palette")
    page.keyboard.type(table.filler(duel, 3))
    page.keyboard.press("Enter")
    guessed(page, before, table.filler(duel, 3))
    assert page.evaluate("document.documentElement.classList.contains('cb')") == palette

    # Leaving asks; Enter (pressed to send a word a moment too late) answers "keep playing".
    page.click("#t-leave")
    page.wait_for_selector("#leave-dialog")
    assert page.evaluate("document.activeElement.id") == "leave-dialog-no"
    shot("leave-question")
    page.keyboard.press("Enter")
    page.wait_for_selector("#leave-dialog", state="detached")
    assert me.me()["where"]["tournament_id"] == tid  # still playing
    page.click("#t-leave")
    page.keyboard.press("Escape")
    page.wait_for_selector("#leave-dialog", state="detached")
    assert me.me()["where"]["tournament_id"] == tid
    # Only the Leave button itself says yes (R20: a loss, out at once).
    page.click("#t-leave")
    page.click("#leave-dialog-yes")
    page.wait_for_selector("#out")
    assert me.me()["where"]["tournament_id"] is None
    for puppet in table.puppets[:-1]:
        puppet.leave(tid)
    assert not errors, errors
    context.close()


def typing_cases() -> list[tuple[str, str]]:
    """Texts to type in each language: every tile and spelling, in both cases, inside words;
    the misspellings players type; and accepted words of each length."""
    rng = random.Random(13)
    cases: list[tuple[str, str]] = []
    for code, spec in wordlists.LANGUAGES.items():
        units = [*spec.tiles, *spec.spellings]
        for unit in units:
            cases += [
                (code, unit),
                (code, unit.upper()),
                (code, f"a{unit}a"),
                (code, f"{unit}{unit}"),
            ]
        for length in wordlists.LENGTHS:
            words = wordlists.accepted_words(code, length)
            for word in rng.sample(words, 8):
                text = "".join(word)
                cases += [(code, text), (code, text.upper())]
    cases += [
        ("uz", "buncha"), ("uz", "BUNCHA"), ("uz", "c"), ("uz", "cx"), ("uz", "o'zbek"),
        ("uz", "Oʻzbek"), ("uz", "g`alaba"), ("uz", "G’ALABA"), ("uz", "shaxmat"),
        ("uz", "bichish"),
        ("fr", "cœur"), ("fr", "CŒUR"), ("fr", "coeur"), ("fr", "œuvre"), ("fr", "été"),
        ("nl", "ĳs"), ("nl", "ijs"), ("de", "straße"), ("de", "STRAẞE"), ("de", "Müller"),
        ("es", "niño"), ("es", "NIÑO"), ("es", "canción"), ("ru", "ёлка"), ("ru", "ЁЛКА"),
        ("kk", "ёлка"), ("uk", "їжак"), ("uk", "ґанок"), ("pl", "żółw"), ("pt", "ação"),
        ("it", "perché"), ("en", "encyclopædia"), ("id", "naïve"), ("en", "a1b"),
    ]  # fmt: skip
    return cases


def expected(code: str, text: str) -> list[str] | None:
    try:
        return list(wordlists.normalise(code, text))
    except wordlists.InvalidCharacters:
        return None


def test_d12_a_physical_keyboard_types_every_tile_of_every_language_as_the_server_reads_it(
    quiet: Live, browser: Any
) -> None:
    context, page, errors = new_page(browser, 800, 600)
    page.goto(quiet.url)
    page.wait_for_selector("#play")
    cases = typing_cases()
    typed_out = page.evaluate(
        """async (cases) => {
            const { Typing } = await import("/static/components/typing.js");
            const { languages } = await (await fetch("/v1/languages")).json();
            const typing = Object.fromEntries(languages.map((l) => [l.code, new Typing(l)]));
            return cases.map(([code, text]) => typing[code].spell(text));
        }""",
        cases,
    )
    wrong = []
    for (code, text), got in zip(cases, typed_out, strict=True):
        want = expected(code, text)
        if want is None:
            if not got["refused"]:
                wrong.append((code, text, "accepted", got["tiles"]))
        elif got["refused"] or got["tiles"] != want:
            wrong.append((code, text, want, got))
    assert wrong == [], wrong[:20]
    multi = {code for code, spec in wordlists.LANGUAGES.items() if spec.is_multi_character}
    assert multi == {"uz"}  # the digraph tiles above: ch, sh, oʻ, gʻ
    assert not errors, errors
    context.close()


def test_d12_an_uzbek_duel_takes_ch_sh_and_o_apostrophe_from_a_physical_keyboard(
    quiet: Live, browser: Any, artifacts: Path
) -> None:
    context, page, errors, table, me, tid = seated(quiet, browser, language="uz")
    shot = Shots(page, artifacts, "keys-uz")
    duel = my_turn_on_screen(page, table, tid, me)
    length = len(duel.secret)
    words = [w for w in wordlists.accepted_words("uz", length) if "ch" in w and w != duel.secret]
    word = next((w for w in words if {"sh", "oʻ", "gʻ"} & set(w)), words[0])
    # Typed as a person types it on a Latin keyboard: letters, and an ASCII apostrophe.
    text = "".join(word).replace("ʻ", "'")
    page.keyboard.type(text)
    shown = typed(page)
    assert shown == [tile.upper() for tile in word], (text, shown)
    shot("typed")
    before = rows(page)
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelectorAll('#board .brow.played').length > {before}"
    )
    played = page.locator("#board .brow.played").nth(before).locator(".tile > span[aria-hidden]")
    assert played.all_inner_texts() == [tile.upper() for tile in word]
    me.leave(tid)
    for puppet in table.puppets[:-1]:
        puppet.leave(tid)
    assert not errors, errors
    context.close()
