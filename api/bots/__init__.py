"""Practice bots: ordinary API clients that play real Wordle.

- `strategy`: the pure brain (candidate words, guess choice by skill, think time). No I/O.
- `client`: a bot as an HTTP client of the public /v1 endpoints.
- `pool`: `make run`'s pool that fills lobbies in which a person has waited long enough.
"""
