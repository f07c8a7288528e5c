"""R25: anonymous players get a friendly generated nickname and may change it."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable

from core import errors
from core.blocked_words import NO_BLOCKED_WORDS, BlockedWords, blocked_word
from core.name_keys import Confusables, is_filler
from core.name_width import too_wide

MIN_LENGTH = 3
MAX_LENGTH = 20

ADJECTIVES = (
    "Amber", "Bold", "Brave", "Bright", "Calm", "Clever", "Cosmic", "Crisp", "Daring", "Eager",
    "Fancy", "Fierce", "Gentle", "Golden", "Happy", "Jolly", "Keen", "Lively", "Lucky", "Merry",
    "Mighty", "Nimble", "Noble", "Plucky", "Proud", "Quick", "Quiet", "Rapid", "Royal", "Rusty",
    "Shiny", "Silent", "Silver", "Sly", "Snappy", "Sunny", "Swift", "Tidy", "Witty", "Zesty",
)  # fmt: skip
ANIMALS = (
    "Badger", "Beaver", "Bison", "Cobra", "Condor", "Coyote", "Crane", "Dingo", "Eagle", "Falcon",
    "Ferret", "Gecko", "Heron", "Ibis", "Jackal", "Koala", "Lemur", "Lynx", "Marten", "Moose",
    "Narwhal", "Ocelot", "Otter", "Panda", "Puffin", "Quokka", "Raven", "Robin", "Salmon",
    "Seal", "Stoat", "Swan", "Tapir", "Tiger", "Toucan", "Walrus", "Wombat", "Yak", "Zebra",
)  # fmt: skip

_ALLOWED_PUNCTUATION = frozenset(" _-.")
SPELLED_OUT = 0x300  # PATTERN lists which characters below U+0300 pass; the server checks the rest


def _passes(c: str) -> bool:
    """Whether `validate` lets `c` stand in a name (whitespace: collapsed into a space)."""
    if c.isspace() or c in _ALLOWED_PUNCTUATION:
        return True
    return unicodedata.category(c)[0] in "LN" and not is_filler(c) and not too_wide(c)


def _is_letter(c: str) -> bool:
    return unicodedata.category(c)[0] == "L" and _passes(c)


def _class_without(refused: Callable[[str], bool]) -> str:
    """A character class of everything but the characters below SPELLED_OUT that `refused` names,
    in the escapes ECMA-262 and Python share."""
    ranges: list[tuple[int, int]] = []
    for code in range(SPELLED_OUT):
        if refused(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))

    def esc(code: int) -> str:
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return "[^" + "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in ranges) + "]"


# What `validate` allows, as a JSON Schema pattern for the OpenAPI document: below U+0300 (ASCII,
# Latin-1, Latin Extended, IPA, spacing modifiers) exactly the characters it lets pass, and at
# least one letter there or a character above (whose rules the pattern cannot hold: the server
# checks them, and the length after collapsing spaces, blocked words and look-alikes).
_CHAR = _class_without(lambda c: not _passes(c))
_LETTER = _class_without(lambda c: not _is_letter(c))
PATTERN = f"^{_CHAR}*{_LETTER}{_CHAR}*$"


GENERATE_ATTEMPTS = 100


def generate(rng: random.Random, allowed: Callable[[str], bool] = lambda name: True) -> str:
    """A friendly name such as "BraveOtter42" that `allowed` accepts (the service passes its
    blocked-words check: no combination of the lists may ever make a blocked word)."""
    for _ in range(GENERATE_ATTEMPTS):
        name = f"{rng.choice(ADJECTIVES)}{rng.choice(ANIMALS)}{rng.randrange(10, 100)}"
        if allowed(name):
            return name
    raise ValueError("no allowed nickname after many attempts: check the word lists")


def validate(
    name: str, blocked: BlockedWords = NO_BLOCKED_WORDS, table: Confusables | None = None
) -> str:
    """The nickname as it will be stored (NFC, inner spaces collapsed), or InvalidNickname.

    Refused: other lengths; anything but letters, digits and " _-."; invisible and filler
    characters (U+3164 HANGUL FILLER, tatweel, zero-width and other format characters…);
    combining marks that compose with nothing; characters wider or taller than a letter
    (core/name_width.py: ligature signs, cuneiform, leftover Hangul jamo…); no visible letter;
    a blocked word (core/blocked_words.py).
    """
    cleaned = " ".join(unicodedata.normalize("NFC", name).split())
    if not MIN_LENGTH <= len(cleaned) <= MAX_LENGTH:
        raise errors.InvalidNickname(
            f"a nickname has {MIN_LENGTH} to {MAX_LENGTH} characters, not {len(cleaned)}",
            "length",
        )
    fillers = sorted({c for c in cleaned if is_filler(c)})
    if fillers:
        shown = ", ".join(f"U+{ord(c):04X}" for c in fillers)
        raise errors.InvalidNickname(
            f"a nickname may not contain invisible characters ({shown})", "invisible"
        )
    bad = sorted(
        {
            c
            for c in cleaned
            if c not in _ALLOWED_PUNCTUATION and unicodedata.category(c)[0] not in "LN"
        }
    )
    if bad:
        raise errors.InvalidNickname(
            f"a nickname may not contain {''.join(bad)!r}", "characters", tuple(bad)
        )
    wide = sorted({c for c in cleaned if too_wide(c)})
    if wide:
        shown = ", ".join(f"U+{ord(c):04X}" for c in wide)
        raise errors.InvalidNickname(
            f"a nickname may not contain characters wider than a letter ({shown})",
            "characters",
            tuple(wide),
        )
    if not any(unicodedata.category(c)[0] == "L" for c in cleaned):
        raise errors.InvalidNickname("a nickname needs at least one letter", "letter")
    if blocked_word(cleaned, blocked, table or {}) is not None:
        raise errors.InvalidNickname("this nickname contains a word that is not allowed", "blocked")
    return cleaned
