"""Bots that play through the API like people: ordinary clients that play real Wordle (the
load harness's players, and an example client).

The strategy itself (candidate words, guess choice by skill, think time) is pure and lives in
`core.bots`, which the house bots (D18) use too. House bots need nothing here: the service plays
them (api/service/house_bots.py, core/house.py).

- `brain`: an HTTP bot's memory of one duel (refused words, its generator) over `core.bots`.
- `client`: a bot as an HTTP client of the public /v1 endpoints.
"""
