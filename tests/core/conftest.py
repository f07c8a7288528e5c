"""Fixtures for the core tests; the fakes and drivers themselves live in helpers.py."""

from __future__ import annotations

import pytest

from core import tournament as tm
from tests.core import helpers


@pytest.fixture
def words() -> helpers.FakeWords:
    """A fresh recording fake word source (use `.source` for core)."""
    return helpers.FakeWords()


@pytest.fixture
def t0() -> tm.Tournament:
    """A tournament just started at time 0: round 1's intro, nobody disconnects."""
    return helpers.start(seed=1)


@pytest.fixture
def live(t0: tm.Tournament) -> tm.Tournament:
    """The same tournament once round 1's duels have started."""
    t, _ = tm.advance(t0, t0.round.starts_at, helpers.WORDS)
    return t
