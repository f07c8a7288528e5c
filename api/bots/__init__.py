"""Bots that play through the API like people: ordinary clients that play real Wordle.

The strategy itself (candidate words, guess choice by skill, think time) is pure and lives in
`core.bots`, which the house bots (D18) use too.

- `brain`: an HTTP bot's memory of one duel (refused words, its generator) over `core.bots`.
- `client`: a bot as an HTTP client of the public /v1 endpoints.
- `pool`: `make run`'s pool that fills lobbies in which a person has waited long enough.
"""
