"""Checks the browser tests make of any screen: it fits the phone, its text, a screenshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def fits(page: Any, where: str, width: int = 360) -> None:
    """No sideways scrolling; when there is, the elements that stick out are named. The width
    is the page's own (less a classic scrollbar when one shows), at most `width`."""
    width = min(width, int(page.evaluate("document.documentElement.clientWidth")) or width)
    scroll = page.evaluate("document.scrollingElement.scrollWidth")
    if scroll > width:
        wide = page.evaluate(
            """(width) => [...document.querySelectorAll('body *')]
                .filter((el) => Math.max(el.getBoundingClientRect().right,
                    el.getBoundingClientRect().left + el.scrollWidth) > width)
                .slice(-5)
                .map((el) => `${el.tagName}.${el.className} ${el.textContent.slice(0, 30)}`)""",
            width,
        )
        pytest.fail(f"{where} is {scroll} px wide: {wide}")


def snap(page: Any, path: Path, full: bool = True) -> None:
    page.screenshot(path=str(path), full_page=full)


def text(page: Any, selector: str) -> str:
    return str(page.locator(selector).inner_text()).strip()


# At least this many characters of a name show wherever two players must be told apart: the
# whole name, or its start and end around an ellipsis (components/names.js).
NAME_CHARACTERS = 12


def names_readable(page: Any, where: str) -> None:
    """Every player's name on screen shows whole, or at least NAME_CHARACTERS of it, and no name
    spills out of its box."""
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.pname-text')]
            .filter((el) => el.getClientRects().length)
            .map((el) => ({ full: el.dataset.name, text: el.textContent,
                            spills: el.scrollWidth > el.clientWidth + 0.5 }))"""
    )
    assert shown, f"{where}: no names"
    short = [
        s
        for s in shown
        if s["spills"]
        or (s["text"] != s["full"] and len(s["text"].replace("…", "")) < NAME_CHARACTERS)
    ]
    assert not short, f"{where}: {short}"


def no_broken_words(page: Any, where: str) -> None:
    """No word on screen is broken inside itself across two lines (a word wraps whole, or at a
    hyphen it has, or is shortened on purpose); addresses, which wrap after their slashes, are
    left out."""
    broken = page.evaluate(
        r"""() => {
            const skip = '.sr-only, .share-url, .pname-text, .board, .mboard, .keyboard, script';
            const out = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const el = node.parentElement;
                if (!el || el.closest(skip) || !el.getClientRects().length) continue;
                if (getComputedStyle(el).visibility === 'hidden') continue;
                // A hyphen is a place to break ("жекпе-/жекті"): its parts are words of their own.
                for (const m of node.textContent.matchAll(/[^\s\-\u2010]{2,}/g)) {
                    const range = document.createRange();
                    range.setStart(node, m.index);
                    range.setEnd(node, m.index + m[0].length);
                    const tops = new Set([...range.getClientRects()]
                        .filter((r) => r.width > 0.5)
                        .map((r) => Math.round(r.top / 4)));
                    if (tops.size > 1) out.push(`${m[0]} (in ${el.tagName}.${el.className})`);
                }
            }
            return out;
        }"""
    )
    assert not broken, f"{where}: words broken inside themselves: {broken}"


def title_whole(page: Any, where: str) -> None:
    """The game's name in the top bar shows whole, when the top bar shows, and nothing of the
    top bar is pushed past the page's width (a classic scrollbar takes some of it)."""
    cut = page.evaluate(
        """() => {
            const el = document.querySelector('.brand-name');
            if (!el || !el.getClientRects().length) return null;
            const width = document.documentElement.clientWidth;
            const out = [...document.querySelectorAll('.topbar > *')]
                .filter((c) => c.getClientRects().length)
                .filter((c) => c.getBoundingClientRect().right > width + 0.5)
                .map((c) => c.className);
            if (el.scrollWidth > el.clientWidth + 0.5) out.push(`${el.textContent} is cut`);
            return out.length ? out.join(', ') : null;
        }"""
    )
    assert cut is None, f"{where}: the title is cut ({cut})"


def readable(page: Any, where: str, width: int = 360) -> None:
    """A screen as a phone shows it: no sideways scrolling, no word broken inside itself, every
    name readable (if any), the title whole."""
    fits(page, where, width)
    no_broken_words(page, where)
    title_whole(page, where)
    if page.locator(".pname-text").count():
        names_readable(page, where)


def readable_shot(page: Any, where: str, path: Path, width: int = 360, full: bool = True) -> None:
    """`readable`, then the screenshot (taken also when a check fails, to see why). A full-page
    screenshot resizes the page for a moment, so it comes after the checks."""
    try:
        readable(page, where, width)
    finally:
        page.screenshot(path=str(path), full_page=full)


def no_lone_character(page: Any, selector: str, where: str) -> None:
    """The text of `selector` wraps, if at all, with at least two characters on every line (an
    address wraps after a slash, never leaving its last character alone)."""
    lines = page.evaluate(
        """(selector) => {
            const el = document.querySelector(selector);
            if (!el) return null;
            const rows = new Map();
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (let i = 0; i < node.textContent.length; i++) {
                    const range = document.createRange();
                    range.setStart(node, i);
                    range.setEnd(node, i + 1);
                    const r = range.getClientRects()[0];
                    if (!r || r.width < 0.5) continue;
                    const top = Math.round(r.top / 4);
                    rows.set(top, (rows.get(top) || '') + node.textContent[i]);
                }
            }
            return [...rows.values()];
        }""",
        selector,
    )
    assert lines, f"{where}: no {selector}"
    assert all(len(line) >= 2 for line in lines), f"{where}: {lines}"
