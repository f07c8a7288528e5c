"""Rebuilding the committed word lists from Debian's hunspell dictionaries and wordfreq.

Only `wordle-tournament wordlists build` uses this package; the game never imports it.
"""
