"""R25: the nickname rules with their data, loaded once from package data (api/service/data):
the Unicode confusables table (UTS #39, Unicode 13.0.0, under the Unicode licence beside it) and
the blocked-words lists of the 13 languages. Core decides (core/nicknames.py,
core/name_keys.py); this module only reads the files and hands them over.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import wordlists
from core import blocked_words, name_keys, nicknames
from core.blocked_words import BlockedWords

DATA = Path(__file__).parent / "data"
CONFUSABLES = DATA / "confusables.txt"
BLOCKED = DATA / "blocked_names"


@cache
def confusables() -> dict[str, str]:
    return name_keys.parse_confusables(CONFUSABLES.read_text(encoding="utf-8").splitlines())


@cache
def blocked(language: str | None = None) -> BlockedWords:
    """One language's list, or (None) all of them: a nickname is shown to every language."""
    if language is not None:
        lines = (BLOCKED / f"{language}.txt").read_text(encoding="utf-8").splitlines()
        return blocked_words.blocked_words(lines, confusables())
    merged = blocked_words.NO_BLOCKED_WORDS
    for code in wordlists.LANGUAGES:
        merged = merged | blocked(code)
    return merged


def allowed(name: str) -> bool:
    return blocked_words.blocked_word(name, blocked(), confusables()) is None


def generate(rng: random.Random) -> str:
    return nicknames.generate(rng, allowed)


def validate(name: str) -> str:
    return nicknames.validate(name, blocked(), confusables())


def key(name: str) -> str:
    return name_keys.name_key(name, confusables())


def shown(names: Sequence[str]) -> list[str]:
    """Names side by side (a lobby, a group, a tournament), look-alikes numbered."""
    return name_keys.disambiguate(names, confusables())
