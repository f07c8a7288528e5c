"""Randomness derived from stored facts (D10): the same parts give the same numbers in every
process, on every machine and in every Python version.

`random.Random(int)` and BLAKE2b are both specified bit for bit, unlike `hash()`, which Python
salts per process for strings.
"""

from __future__ import annotations

import hashlib
import math
import random

_UNIT = 2.0**-53


def _digest(parts: tuple[object, ...], size: int) -> bytes:
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.blake2b(text.encode(), digest_size=size).digest()


def stream(*parts: object) -> random.Random:
    """A generator seeded by `parts` (ints and strings)."""
    return random.Random(int.from_bytes(_digest(parts, 16), "little"))


def uniforms(*parts: object) -> tuple[float, float, float]:
    """Three independent uniform numbers in [0, 1) from `parts`: cheaper than a `stream` when a
    few numbers are all that is needed (a bot's thinking time is computed on every poll)."""
    d = _digest(parts, 24)
    return tuple(  # type: ignore[return-value]
        (int.from_bytes(d[i : i + 8], "little") >> 11) * _UNIT for i in (0, 8, 16)
    )


def normal(u1: float, u2: float) -> float:
    """A standard normal number from two uniforms (Box–Muller)."""
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
