"""Checks the browser tests make of any screen: it fits the phone, its text, a screenshot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


def fits(page: Any, where: str, width: int = 360) -> None:
    """No sideways scrolling; when there is, the elements that stick out are named."""
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
