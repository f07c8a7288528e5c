"""What a player's shared result should say, built from the API's public summary (R7), and the
check that the share card shows it."""

from __future__ import annotations

import math
import re
from typing import Any

MEDALS = {1: "🥇 ", 2: "🥈 ", 3: "🥉 "}
SQUARES = {"G": "🟩", "Y": "🟨", "-": "⬛"}


def ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10 if n % 100 not in (11, 12, 13) else 0, "th")
    return f"{n}{suffix}"


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "±0"


def your_duels(summary: dict[str, Any], you: str) -> list[dict[str, Any]]:
    """The player's duels in the summary, round by round."""
    duels = (
        next((d for d in rnd["duels"] if you in d["players"]), None) for rnd in summary["rounds"]
    )
    return [d for d in duels if d is not None]


def skill(analyses: list[dict[str, Any]], you: str) -> int | None:
    """D19: the skill of the player's words over the tournament, as the share gives it: the
    mean of every row of theirs that has one (the coach's analyses), rounded half up."""
    scores = [r["skill"] for a in analyses for r in a["rows"] if r["by"] == you]
    scores = [s for s in scores if s is not None]
    return math.floor(sum(scores) / len(scores) + 0.5) if scores else None


def expected_share(
    url: str, summary: dict[str, Any], you: str, analyses: list[dict[str, Any]]
) -> str:
    """What the share says, built here from the API's summary and the analyses of the player's
    duels: the place and rating change, the skill of their words, one line of squares per duel
    of the player's (their own rows; ⌛ a skipped turn)."""
    me = next(p for p in summary["players"] if p["id"] == you)
    after = me["rating"] + me["rating_change"]
    lines = [
        "Wordle Tournament · English",
        f"{MEDALS.get(me['place'], '')}{ordinal(me['place'])} of {len(summary['players'])}"
        f" · {me['rating']} → {after} ({signed(me['rating_change'])})",
    ]
    score = skill(analyses, you)
    if score is not None:
        lines.append(f"Skill {score}/100")
    for duel in your_duels(summary, you):
        seat = duel["players"].index(you)
        rows = [
            "⌛" if row is None else "".join(SQUARES[m] for m in row[1])
            for i, row in enumerate(duel["board"])
            if i % 2 == seat
        ]
        result = duel["result"]
        end = "🤝" if result["kind"] == "draw" else "✅" if result["winner"] == you else "❌"
        lines.append(" ".join([*rows, end]))
    lines.append(f"{url}/#/r/{summary['id']}")
    return "\n".join(lines)


def shows(page: Any, want: str) -> None:
    """The card shows the text it shares, its squares drawn by the page (no emoji font needed)."""
    lines = want.splitlines()
    shown = page.locator("#share-preview .share-line")
    assert shown.count() == len(lines)
    assert [shown.nth(k).inner_text() for k in (0, 1, len(lines) - 1)] == [
        lines[0],
        lines[1],
        lines[-1],
    ]
    for k in range(2, len(lines) - 1):
        squares = len(re.findall("[🟩🟨⬛⌛]", lines[k]))
        assert shown.nth(k).locator(".sq").count() == squares, lines[k]
        if not squares and not re.search("[✅❌🤝]", lines[k]):  # the skill's line
            assert shown.nth(k).inner_text() == lines[k]
    assert page.locator("#share-preview").get_attribute("aria-hidden") == "true"
