"""R1–R9, R20, R21, D1, D2, D7–D10, D13: a tournament as a pure function of stored facts and time.

Every public function takes the state, the time `now` (ms) and the word source, and returns the
new state with the events that led there. Randomness comes from `seed`, stored in the state, so
advancing to t in one call or in many small steps yields the same tournament (D10): a poll, a guess
and the scheduled sweep all compute the same thing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from core import errors, rating, standings
from core.duel import Duel, Word, expire, forfeit, play
from core.events import (
    DuelEnded,
    Event,
    GuessPlayed,
    PlaceFixed,
    PlayerLeft,
    RoundStarted,
    TournamentFinished,
)
from core.evolve import evolve
from core.pairing import pair
from core.timing import PLAYERS_PER_TOURNAMENT, Timing

# Re-exported: callers build tournaments from `tm.Seat`s and read `tm.Tournament`s.
from core.tournament_state import Player as Player
from core.tournament_state import Round as Round
from core.tournament_state import Seat as Seat
from core.tournament_state import Tournament as Tournament
from core.words import WORD_LENGTHS, WordSource

# ---------------------------------------------------------------------------- commands


def start(
    tournament_id: str,
    language: str,
    seats: Sequence[Seat],
    now: int,
    rng: random.Random,
    words: WordSource,
    timing: Timing | None = None,
) -> tuple[Tournament, list[Event]]:
    """D7: the tournament starts the moment the last seat is filled; round 1's intro begins."""
    if len(seats) != PLAYERS_PER_TOURNAMENT:
        raise ValueError(f"a tournament needs {PLAYERS_PER_TOURNAMENT} players")
    if len({s.id for s in seats}) != len(seats):
        raise ValueError("a player can hold only one seat")
    players = tuple(
        Player(s.id, s.nickname, s.rating, now, bot=s.bot or s.house, group=s.group, house=s.house)
        for s in seats
    )
    t = Tournament(
        tournament_id, language, rng.getrandbits(63), timing or Timing(), now, players, ()
    )
    events: list[Event] = []
    t = _begin_round(t, 1, now, [p.id for p in players], words, events)
    return t, events


def advance(t: Tournament, now: int, words: WordSource) -> tuple[Tournament, list[Event]]:
    """D10: bring the tournament to time `now`, applying every deadline in time order: turns'
    timeouts, house bots' moves (D18) and disconnect windows (R21)."""
    events: list[Event] = []
    while t.finished_at is None:
        rnd = t.rounds[-1]
        leave_at, leaver, with_house = _next_disconnect(t)
        horizon = now if leave_at is None or leave_at > now else leave_at
        if with_house:
            t = _play_house(t, horizon, words, events)
            rnd = t.rounds[-1]
        else:
            duels = tuple(expire(d, horizon) for d in rnd.duels)
            if any(new is not old for new, old in zip(duels, rnd.duels, strict=True)):
                t = _settle(t, evolve(rnd, duels=duels), events)
                rnd = t.rounds[-1]
        leaving = leaver is not None and leave_at is not None and leave_at <= now
        if all(d.ended_at is not None for d in rnd.duels):
            end = max(d.ended_at for d in rnd.duels if d.ended_at is not None)
            # A player whose window closes at the very moment the round ends leaves in this
            # round, with the others leaving at that moment (they share a place, D8).
            if not (leaving and leave_at is not None and leave_at <= end):
                t = _close_round(t, end, words, events)
                continue
        if leaving and leaver is not None and leave_at is not None:
            t = _leave(t, leaver, leave_at, events)
            continue
        break
    return t, events


def guess(
    t: Tournament,
    player: str,
    row: int,
    word: Word,
    now: int,
    words: WordSource,
    duel_id: str | None = None,
) -> tuple[Tournament, list[Event]]:
    """Play `word` on board row `row` (0-based) of the player's duel.

    A retry of a row the player already played with the same word changes nothing and raises
    nothing, so the client gets the same answer (the row is in the state), even when that guess
    ended the duel, knocked the guesser out or ended the tournament. Naming the duel (`duel_id`)
    keeps that true for the guess that ended a round, once the next one has begun.
    """
    t, events = advance(t, now, words)
    word = tuple(word)
    rnd = t.rounds[-1]
    if duel_id is not None:
        named = _players_duel(t, player, duel_id)
        if named is not None and _replays(named, player, row, word):
            return t, events
        if named is not None and named not in rnd.duels:
            raise errors.DuelOver(named.id)
    else:
        mine = rnd.duel_of(player)
        if mine is not None and _replays(mine, player, row, word):
            return t, events
    duel = _current_duel(t, player)
    if duel_id is not None and duel.id != duel_id:
        raise errors.NotInDuel(player)
    if 0 <= row < len(duel.turns):
        raise errors.StaleRow(len(duel.turns), row)
    if duel.ended_at is not None:
        raise errors.DuelOver(duel.id)
    if now < rnd.starts_at:
        raise errors.IntroInProgress(rnd.starts_at)
    if row != len(duel.turns):
        raise errors.StaleRow(len(duel.turns), row)
    if duel.to_play != player:
        raise errors.NotYourTurn(player, duel.to_play)
    if len(word) != len(duel.secret):
        raise errors.WrongLength(len(duel.secret), len(word))
    if not words.accepts(word):
        raise errors.NotInWordList(word)
    # A request stamped before its turn began (clocks of two servers differ by a little) counts
    # as played when the turn began, never before the row above it.
    at = max(now, duel.turn_started_at)
    played = play(duel, player, word, at)
    last = played.turns[-1]
    events.append(GuessPlayed(duel.id, player, row, word, last.marks or "", at))
    t = _settle(t, _with_duel(rnd, played), events)
    t, more = advance(t, at, words)
    return t, events + more


def _replays(duel: Duel, player: str, row: int, word: Word) -> bool:
    if not 0 <= row < len(duel.turns):
        return False
    turn = duel.turns[row]
    return turn.player == player and turn.word == word


def _players_duel(t: Tournament, player: str, duel_id: str) -> Duel | None:
    """The duel `duel_id` of any round, if `player` plays in it."""
    for rnd in t.rounds:
        for duel in rnd.duels:
            if duel.id == duel_id and player in duel.players:
                return duel
    return None


def leave(
    t: Tournament, player: str, now: int, words: WordSource
) -> tuple[Tournament, list[Event]]:
    """R20, D8: leaving after the start loses the current duel and eliminates the player.

    Leaving once already out costs nothing and changes nothing (D14).
    """
    t, events = advance(t, now, words)
    p = t.player(player)
    if t.finished_at is not None or p.lives == 0:
        return t, events
    t = _leave(t, player, now, events)
    t, more = advance(t, now, words)
    return t, events + more


def contact(
    t: Tournament, player: str, now: int, words: WordSource
) -> tuple[Tournament, list[Event]]:
    """D9: the server heard from `player` at `now`. A window that already ran out stays run out.
    A house bot (D18) has no window: nothing to record."""
    t, events = advance(t, now, words)
    p = t.player(player)
    if p.lives > 0 and p.left_at is None and now > p.last_contact and not p.house:
        t = _with_player(t, evolve(p, last_contact=now))
    return t, events


def record_duels(
    t: Tournament, duels: Sequence[Duel], words: WordSource
) -> tuple[Tournament, list[Event]]:
    """Take later states of the current round's duels, played with `core.duel` at their own
    pace, then advance to the last one's end.

    For the simulator, which plays each duel on its own: a duel must keep its id, players and
    secret and only add turns. Duels of one round are independent, so the result is the same
    as playing every turn through `guess` and `advance`.
    """
    rnd = t.rounds[-1]
    if [d.id for d in duels] != [d.id for d in rnd.duels]:
        raise ValueError("duels must be the current round's, in order")
    for new, old in zip(duels, rnd.duels, strict=True):
        if (
            new.players != old.players
            or new.secret != old.secret
            or new.turns[: len(old.turns)] != old.turns
            or new.ended_at is None
        ):
            raise ValueError(f"duel {new.id} is not a finished continuation of the stored one")
    events: list[Event] = []
    t = _settle(t, evolve(rnd, duels=tuple(duels)), events)
    end = max(d.ended_at for d in duels if d.ended_at is not None)
    t, more = advance(t, end, words)
    return t, events + more


# ---------------------------------------------------------------------------- internals


def _current_duel(t: Tournament, player: str) -> Duel:
    if t.finished_at is not None:
        raise errors.TournamentOver()
    p = t.player(player)
    if p.lives == 0:
        raise errors.AlreadyOut(player)
    duel = t.rounds[-1].duel_of(player)
    if duel is None:
        raise errors.NotInDuel(player)
    return duel


def _next_disconnect(t: Tournament) -> tuple[int | None, str | None, bool]:
    """The next disconnect window to close (R21, D9) and who it is, and whether the tournament
    seats house bots (D18: they have no window). One pass: `advance` asks on every step."""
    best: tuple[int | None, str | None] = (None, None)
    house = False
    for p in t.players:
        if p.house:
            house = True
        elif p.lives > 0 and p.left_at is None:
            at = p.last_contact + t.timing.reconnect_ms
            if best[0] is None or at < best[0]:
                best = (at, p.id)
    return best[0], best[1], house


def _with_player(t: Tournament, player: Player) -> Tournament:
    players = tuple(player if p.id == player.id else p for p in t.players)
    return evolve(t, players=players)


def _with_duel(rnd: Round, duel: Duel) -> Round:
    return evolve(rnd, duels=tuple(duel if d.id == duel.id else d for d in rnd.duels))


def _with_round(t: Tournament, rnd: Round) -> Tournament:
    return evolve(t, rounds=(*t.rounds[:-1], rnd))


def _settle(t: Tournament, rnd: Round, events: list[Event]) -> Tournament:
    """Store `rnd` and take lives for every duel in it that has just ended (R5, R14)."""
    lost: dict[str, int] = {}
    for new, old in zip(rnd.duels, t.rounds[-1].duels, strict=True):
        if new.ended_at is None or old.ended_at is not None:
            continue
        events.append(DuelEnded(new.id, new.winner, new.ended_at, new.forfeit))
        if new.forfeit:
            continue  # the leaver is already at 0 lives; the winner loses nothing (D8)
        losers = new.players if new.winner is None else (new.opponent(new.winner),)
        for loser in losers:
            lost[loser] = lost.get(loser, 0) + 1
    players = t.players
    if lost:
        players = tuple(
            evolve(p, lives=max(0, p.lives - lost[p.id])) if p.id in lost else p for p in players
        )
    return evolve(t, players=players, rounds=(*t.rounds[:-1], rnd))


def _play_house(t: Tournament, until: int, words: WordSource, events: list[Event]) -> Tournament:
    """D18, D10: the current round's house bot moves and timeouts up to `until`, one at a time
    in time order (ties in duel order), each duel settled as it ends: the same tournament and
    the same events however the time up to `until` is cut into calls."""
    from core import house  # on first use, as in Tournament.next_deadline

    bots = t.house_bots()
    while True:
        rnd = t.rounds[-1]
        first: tuple[int, int, bool] | None = None  # (time, duel, whether a bot moves then)
        for i, d in enumerate(rnd.duels):
            if d.ended_at is None:
                at = house.move_at(t.seed, d, bots)
                moves = at is not None
                if at is None:
                    at = d.turn_started_at + d.turn_ms + d.held_ms  # the turn's timeout
                if at <= until and (first is None or at < first[0]):
                    first = (at, i, moves)
        if first is None:
            return t
        at, i, moves = first
        duel = rnd.duels[i]
        if moves:
            player, row = duel.to_play, len(duel.turns)
            word = house.word(t.seed, duel, bots[player], words)
            duel = play(duel, player, word, at)
            marks = duel.turns[-1].marks or ""
            events.append(GuessPlayed(duel.id, player, row, word, marks, at))
        else:
            duel = expire(duel, at)  # exactly this one turn: the next times out later
        t = _settle(t, _with_duel(rnd, duel), events)


def _leave(t: Tournament, player: str, at: int, events: list[Event]) -> Tournament:
    p = t.player(player)
    t = _with_player(t, evolve(p, lives=0, left_at=at))
    events.append(PlayerLeft(player, at))
    rnd = t.rounds[-1]
    duel = rnd.duel_of(player)
    if duel is not None and duel.ended_at is None:
        t = _settle(t, _with_duel(rnd, forfeit(duel, player, at)), events)
    return t


def _close_round(t: Tournament, end: int, words: WordSource, events: list[Event]) -> Tournament:
    """R7, R8, D1, D8, R16: fix the places of this round's eliminations, then start the next."""
    rnd = t.rounds[-1]
    alive = [p for p in t.players if p.lives > 0]
    out = [p for p in t.players if p.lives == 0 and p.place is None]
    places = standings.places_if_round_ended(t.players)
    # D18: once only house bots are left, no person's place depends on the rest: they share
    # first place at once, as if this round had eliminated them all (R8; docs/decisions.md).
    ends = len(alive) <= 1 or all(p.house for p in alive)
    fixed = out + alive if ends else out
    for p in alive if ends else ():
        places[p.id] = 1
    players = t.players
    if fixed:
        ratings = {p.id: p.rating for p in players}
        updated: dict[str, Player] = {}
        for p in fixed:
            delta = rating.change(p.id, ratings, places)
            updated[p.id] = evolve(p, place=places[p.id], rating_change=delta, out_round=rnd.number)
            events.append(PlaceFixed(p.id, places[p.id], delta, p.rating + delta))
        players = tuple(updated.get(p.id, p) for p in players)
    rounds = (*t.rounds[:-1], evolve(rnd, ended_at=end))
    if ends:
        events.append(TournamentFinished(end, alive[0].id if len(alive) == 1 else None))
        return evolve(t, players=players, rounds=rounds, finished_at=end)
    t = evolve(t, players=players, rounds=rounds)
    return _begin_round(t, rnd.number + 1, end, [p.id for p in alive], words, events)


def _begin_round(
    t: Tournament,
    number: int,
    at: int,
    players: list[str],
    words: WordSource,
    events: list[Event],
) -> Tournament:
    """R2, R4, R6, R10, R24, D2, D13: pairings, byes, first players and secrets of a round."""
    rng = random.Random(t.seed + number)
    if t.rounds:
        prev = t.rounds[-1]
        previous = frozenset(frozenset(d.players) for d in prev.duels)
        previous_bye = prev.bye
    else:
        previous, previous_bye = frozenset(), None
    pairing = pair(players, previous, previous_bye, rng)
    used = {d.secret for r in t.rounds for d in r.duels}
    starts_at = at + t.timing.intro_ms
    duels = []
    for i, (a, b) in enumerate(pairing.pairs, start=1):
        first, second = (a, b) if rng.random() < 0.5 else (b, a)
        secret = words.draw(rng.choice(WORD_LENGTHS), rng, used)
        used.add(secret)
        duels.append(Duel(f"r{number}d{i}", (first, second), secret, starts_at, t.timing.turn_ms))
    events.append(RoundStarted(number, at, starts_at))
    rnd = Round(number, at, starts_at, tuple(duels), pairing.bye)
    return evolve(t, rounds=(*t.rounds, rnd))
