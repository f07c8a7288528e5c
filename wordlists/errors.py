"""Errors raised by the word-list API: all are `ValueError`s, i.e. bad input."""

from __future__ import annotations


class WordlistError(ValueError):
    """Base class of every error raised by `wordlists`."""


class UnknownLanguage(WordlistError):
    """The language code is not one of `wordlists.LANGUAGES`."""

    def __init__(self, lang: str) -> None:
        super().__init__(f"unknown language {lang!r}")
        self.lang = lang


class InvalidCharacters(WordlistError):
    """The text holds characters that are not tiles of the language and do not fold to one."""

    def __init__(self, lang: str, text: str, characters: tuple[str, ...]) -> None:
        shown = " ".join(repr(c) for c in characters)
        super().__init__(f"{lang}: {text!r} has characters that are not letters here: {shown}")
        self.lang = lang
        self.text = text
        self.characters = characters


class EmptyText(InvalidCharacters):
    """The text is empty once surrounding whitespace is stripped."""

    def __init__(self, lang: str, text: str) -> None:
        WordlistError.__init__(self, f"{lang}: no letters in {text!r}")
        self.lang = lang
        self.text = text
        self.characters = ()
