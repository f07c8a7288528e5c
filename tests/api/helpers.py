"""Kept for tests/web/puppets.py, which imports `fillers` from here: the API tests' helpers are
in tests/api/clock.py, repos.py, words.py, game.py, checks.py and leaks.py."""

from tests.api.words import fillers

__all__ = ["fillers"]
