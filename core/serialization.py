"""A tournament as plain JSON-able data, compact because it is stored and rewritten often.

Times are stored as offsets from the tournament's creation; words as strings when every tile is
one character, as lists of tiles otherwise.
"""

from __future__ import annotations

from typing import Any

from core.duel import Duel, Turn, Word
from core.timing import Timing
from core.tournament_state import Player, Round, Tournament

FORMAT = 1


def _word_out(word: Word) -> str | list[str]:
    return "".join(word) if all(len(t) == 1 for t in word) else list(word)


def _word_in(data: str | list[str]) -> Word:
    return tuple(data)


def _opt(value: int | None, base: int) -> int | None:
    return None if value is None else value - base


def _opt_in(value: int | None, base: int) -> int | None:
    return None if value is None else value + base


def to_dict(t: Tournament) -> dict[str, Any]:
    base = t.created_at
    ids = [p.id for p in t.players]
    index = {pid: i for i, pid in enumerate(ids)}
    return {
        "f": FORMAT,
        "id": t.id,
        "lang": t.language,
        "seed": t.seed,
        "tm": [t.timing.turn_ms, t.timing.intro_ms, t.timing.reconnect_ms],
        "at": base,
        "end": _opt(t.finished_at, base),
        "p": [
            [
                p.id,
                p.nickname,
                p.rating,
                p.last_contact - base,
                p.lives,
                _opt(p.left_at, base),
                p.out_round,
                p.place,
                p.rating_change,
                2 if p.house else int(p.bot),  # 2: a house bot (D18); older items have 0 or 1
                *([] if p.group is None else [p.group]),
            ]
            for p in t.players
        ],
        "r": [
            [
                r.number,
                r.intro_at - base,
                r.starts_at - base,
                None if r.bye is None else index[r.bye],
                _opt(r.ended_at, base),
                [
                    [
                        d.id,
                        [index[d.players[0]], index[d.players[1]]],
                        _word_out(d.secret),
                        _opt(d.ended_at, base),
                        None if d.winner is None else index[d.winner],
                        int(d.forfeit),
                        [
                            [
                                index[turn.player],
                                None if turn.word is None else _word_out(turn.word),
                                turn.marks,
                                turn.at - base,
                            ]
                            for turn in d.turns
                        ],
                        *([d.held_ms] if d.held_ms else []),
                    ]
                    for d in r.duels
                ],
            ]
            for r in t.rounds
        ],
        **({"ab": [[s - base, e - base] for s, e in t.absorbed]} if t.absorbed else {}),
    }


def from_dict(data: dict[str, Any]) -> Tournament:
    if data.get("f") != FORMAT:
        raise ValueError(f"unknown tournament format {data.get('f')!r}")
    base: int = data["at"]
    turn_ms, intro_ms, reconnect_ms = data["tm"]
    players = tuple(
        Player(
            id=pid,
            nickname=nick,
            rating=rating,
            last_contact=contact + base,
            lives=lives,
            left_at=_opt_in(left, base),
            out_round=out_round,
            place=place,
            rating_change=change,
            bot=bool(bot),
            group=group[0] if group else None,  # absent when none (and in older items)
            house=bot == 2,
        )
        for pid, nick, rating, contact, lives, left, out_round, place, change, bot, *group in (
            data["p"]
        )
    )
    ids = [p.id for p in players]
    rounds = []
    for number, intro, starts, bye, ended, duels in data["r"]:
        starts_at = starts + base
        rounds.append(
            Round(
                number=number,
                intro_at=intro + base,
                starts_at=starts_at,
                bye=None if bye is None else ids[bye],
                ended_at=_opt_in(ended, base),
                duels=tuple(
                    Duel(
                        id=did,
                        players=(ids[pair[0]], ids[pair[1]]),
                        secret=_word_in(secret),
                        starts_at=starts_at,
                        turn_ms=turn_ms,
                        turns=tuple(
                            Turn(
                                ids[who],
                                None if word is None else _word_in(word),
                                marks,
                                at + base,
                            )
                            for who, word, marks, at in turns
                        ),
                        ended_at=_opt_in(d_end, base),
                        winner=None if winner is None else ids[winner],
                        forfeit=bool(forfeited),
                        held_ms=held[0] if held else 0,
                    )
                    for did, pair, secret, d_end, winner, forfeited, turns, *held in duels
                ),
            )
        )
    return Tournament(
        id=data["id"],
        language=data["lang"],
        seed=data["seed"],
        timing=Timing(turn_ms, intro_ms, reconnect_ms),
        created_at=base,
        players=players,
        rounds=tuple(rounds),
        finished_at=_opt_in(data["end"], base),
        absorbed=tuple((s + base, e + base) for s, e in data.get("ab", ())),
    )
