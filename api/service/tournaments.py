"""Live tournaments: polling, guesses, leaving, watching, and the sweep's advancing.

Every request first brings the tournament to `now` (D10) and saves that if it changed anything,
conditionally on the version it read; ratings reach the player items in the same transaction
as the place that fixes them, so they are applied exactly once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import wordlists
from api.service import errors, names, where
from api.service.context import Context, guarded, is_id, retry_on_conflict
from api.service.history import place_writes
from api.storage.records import LobbyRecord, PlayerRecord, TournamentRecord
from api.storage.repository import Put, Write
from core import tournament as tm
from core import views
from core.errors import GameError
from core.events import Event, PlaceFixed
from core.evolve import evolve
from core.outages import Outage, absorb_all
from core.tournament_state import Tournament
from core.words import WordSource

# Duel ids as core makes them: round and duel numbers (`r3d2`).
DUEL_ID = re.compile(r"r[0-9]{1,4}d[0-9]{1,2}")
# A guess holds something to play: a character that is not whitespace (str.isspace, spelled out
# for the OpenAPI document's pattern, which must refuse what this refuses).
WORD_PATTERN = r"[^\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
_PLAYABLE = re.compile(WORD_PATTERN)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A tournament as stored after advancing to `now`, for one viewer."""

    record: TournamentRecord
    now: int
    changed: bool = False  # this request saved a newer state

    @property
    def tournament(self) -> Tournament:
        return self.record.tournament

    def etag(self, fingerprint: str) -> str:
        """The state's entity tag, without a poll pass, for a viewer at the position whose Where
        fingerprint is `fingerprint`: the phase flips from intro to duels by time alone, without
        a new version, and a viewer who was moved (seated in a new tournament, put out) must not
        get a 304."""
        return f'"{self.record.version}.{self.tournament.phase(self.now)}.{fingerprint}"'

    def plays_on(self, player_id: str) -> bool:
        """Whether `player_id` still plays in this tournament (not out, not left, not over):
        the only viewer a poll pass is issued to (api/service/poll_passes.py)."""
        t = self.tournament
        if t.finished_at is not None:
            return False
        me = next((p for p in t.players if p.id == player_id), None)
        return me is not None and me.alive and me.left_at is None


def displayed(record: TournamentRecord) -> Tournament:
    """The tournament as its views show it: each fixed place with the rating change that was
    applied (D19: a refused walk-over gain is shown as not gained), not R15–R17's own."""
    t, changes = record.tournament, record.rating_changes
    if not changes:
        return t
    players = tuple(
        evolve(p, rating_change=changes[p.id]) if p.id in changes else p for p in t.players
    )
    return evolve(t, players=players)


def heard(t: Tournament, player_id: str, now: int) -> Tournament:
    """`t` with `player_id` heard from at `now` (D9), if they are still playing."""
    players = tuple(
        evolve(p, last_contact=now)
        if p.id == player_id and p.lives > 0 and p.left_at is None and p.last_contact < now
        else p
        for p in t.players
    )
    return evolve(t, players=players)


def with_contacts(record: TournamentRecord) -> Tournament:
    """The state with the last-contact stamps that were written apart from it (D9)."""
    t = record.tournament
    newer = {
        p.id: stamp
        for p in t.players
        if (stamp := record.contacts.get(p.id, 0)) > p.last_contact
        and p.lives > 0
        and p.left_at is None
    }
    if not newer:
        return t
    players = tuple(evolve(p, last_contact=newer[p.id]) if p.id in newer else p for p in t.players)
    return evolve(t, players=players)


def absorb_outages(
    record: TournamentRecord,
    t: Tournament,
    outages: Sequence[Outage],
    words: WordSource,
) -> tuple[Tournament, list[Event]]:
    """Storage outages since the tournament began, each taken into account once (a pause:
    core/outages.py). Whether it was being played: its latest real contact stamp."""
    relevant = [o for o in outages if o.end > t.created_at]
    if not relevant:
        return t, []
    heard = max(record.contacts.values(), default=t.created_at)
    return absorb_all(t, relevant, max(heard, t.created_at), words)


def start_writes(
    ctx: Context,
    lobby: LobbyRecord,
    players: Sequence[PlayerRecord],
    now: int,
    new_lobby: bool = False,
) -> tuple[Tournament, list[Write]]:
    """D7: the lobby is full, so its tournament starts now, in one transaction with the seats
    (house bots among them, D18, are seated in the lobby too)."""
    by_id = {p.id: p for p in players}
    order = [by_id[s.player] for s in lobby.lobby.seats]
    # R25: the tournament shows its names for good; look-alikes get " 2", " 3", … by seat.
    shown = names.shown([p.nickname for p in order])
    seats = [
        tm.Seat(p.id, name, p.rating, p.bot, p.group_id, house=p.house)
        for p, name in zip(order, shown, strict=True)
    ]
    language = lobby.lobby.language
    tid = ctx.new_id("t")
    t, _ = tm.start(tid, language, seats, now, ctx.rng, ctx.words(language), ctx.settings.timing)
    writes: list[Write] = [
        Put(replace(lobby, tournament_id=tid, due=None), new=new_lobby),
        Put(TournamentRecord(t, due=t.next_deadline()), new=True),
    ]
    for seat in lobby.lobby.seats:
        p = by_id[seat.player]
        seated = replace(
            p, lobby_id=None, queued_at=None, tournament_id=tid, last_tournament_id=tid
        )
        writes.append(Put(seated, new=p.version == 0))  # version 0: a new house bot (D18)
    return t, writes


class Tournaments:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    # ------------------------------------------------------------------ reading and advancing

    def advance(
        self, tournament_id: str, now: int | None = None, seen: int | None = None
    ) -> Snapshot:
        """Bring the stored tournament to `now`, saving the change if there is one.

        `seen`: the newest version the client has been shown (its ETag). Then the first read
        is eventually consistent, half the price of a strong one, and taken only if it is at
        least that version; otherwise, and on any retry, the read is strong. So a client is
        never shown a state older than one it has seen (after its own guess, the guess's
        answer carried the new version), and a change decided on a stale read fails its
        condition on the version and is decided again on a strong read: no write is lost.
        """
        now = self.ctx.now() if now is None else now
        if not is_id(tournament_id, "t"):
            raise errors.NotFound("no such tournament")

        outages = self.ctx.outages(now)
        cheap = [seen is not None]

        def read() -> TournamentRecord | None:
            if cheap[0]:
                cheap[0] = False
                found = self.ctx.repo.get_tournament(tournament_id, consistent=False)
                if found is not None and seen is not None and found.version >= seen:
                    return found
            return self.ctx.repo.get_tournament(tournament_id)

        def attempt() -> Snapshot:
            record = read()
            if record is None:
                raise errors.NotFound(f"tournament {tournament_id} not found")
            before = with_contacts(record)
            words = self.ctx.words(before.language)
            paused, absorbed = absorb_outages(record, before, outages, words)
            after, events = tm.advance(paused, now, words)
            events = absorbed + events
            if after is before:
                return Snapshot(evolve(record, tournament=after), now)
            return Snapshot(self._save(record, after, events), now, changed=True)

        return retry_on_conflict(attempt)

    def _save(
        self, record: TournamentRecord, after: Tournament, events: Sequence[Event]
    ) -> TournamentRecord:
        """Write the new state and, in the same transaction, every rating it fixed (R16), as
        fair play settles it (D19: the change applied, kept beside the state for its views)."""
        fixed = {e.player for e in events if isinstance(e, PlaceFixed)}
        was_out = {p.id for p in record.tournament.players if p.lives == 0}
        out = {p.id for p in after.players if p.lives == 0} - was_out
        writes: list[Write] = []
        changes = dict(record.rating_changes)
        if fixed or out:
            found = self.ctx.repo.get_players(sorted(out | fixed))
            # R16: the history line and the statistics, exactly once with the rating.
            placed = place_writes(self.ctx, after, [p for p in found if p.id in fixed])
            for p in found:
                # D14: out is free at once (unless already seated in a newer tournament).
                changed = replace(
                    p, tournament_id=None if p.tournament_id == after.id else p.tournament_id
                )
                change = placed.changes.get(p.id)
                if change is not None:  # R16: the rating changes once, with the fixed place
                    changed = replace(changed, rating=p.rating + change, played=p.played + 1)
                    if change != after.player(p.id).rating_change:
                        changes[p.id] = change
                if changed != p:
                    writes.append(Put(changed))
            writes += placed.writes
        updated = replace(
            record, tournament=after, due=after.next_deadline(), rating_changes=changes
        )
        self.ctx.repo.commit([Put(updated), *writes])
        return replace(updated, version=record.version + 1)

    def _touch(self, snapshot: Snapshot, player_id: str) -> None:
        """D9: a request from the player; written at most once per contact interval (a sixth
        of the tournament's reconnect window, at most 10 s)."""
        t = snapshot.tournament
        p = next((p for p in t.players if p.id == player_id), None)
        if p is None or p.lives == 0 or p.left_at is not None:
            return
        if snapshot.now - p.last_contact >= t.timing.contact_interval_ms:
            guarded(lambda: self.ctx.repo.touch(t.id, player_id, snapshot.now))

    def _participant(self, snapshot: Snapshot, player: PlayerRecord) -> None:
        if not any(p.id == player.id for p in snapshot.tournament.players):
            raise errors.Forbidden(
                "only the tournament's players may see it", code="not_a_participant"
            )

    # ------------------------------------------------------------------ requests

    def state(
        self,
        player: PlayerRecord,
        tournament_id: str,
        seen: int | None = None,
        snapshot: Snapshot | None = None,
    ) -> Snapshot:
        """The tournament at now, for one of its players; `view` makes their state of it (a
        poll answered 304 needs none). `seen`: the version of the client's ETag (`advance`);
        `snapshot`: the tournament already advanced by this request (`unchanged_for`)."""
        snapshot = snapshot or self.advance(tournament_id, seen=seen)
        self._participant(snapshot, player)
        self._touch(snapshot, player.id)
        return snapshot

    def unchanged_for(
        self, player_id: str, tournament_id: str, seen: int, named: str, fingerprint: str
    ) -> tuple[bool, Snapshot]:
        """A poll by the holder of a valid poll pass, not yet read: whether the state is the
        one its ETag `named` (without the pass, at position `fingerprint`) names and the player
        still plays on, then counted as contact (D9); with the advanced tournament, for `state`
        otherwise."""
        snapshot = self.advance(tournament_id, seen=seen)
        if not snapshot.plays_on(player_id) or snapshot.etag(fingerprint) != named:
            return False, snapshot
        self._touch(snapshot, player_id)
        return True, snapshot

    def view(self, snapshot: Snapshot, player: PlayerRecord) -> dict[str, Any]:
        view = views.tournament_view(displayed(snapshot.record), player.id, snapshot.now)
        view["where"] = where.where(player, snapshot.tournament)
        return view

    def history(self, player: PlayerRecord, tournament_id: str) -> tuple[int, dict[str, Any]]:
        """D2, D4: every round played so far, final boards and secrets included; with the
        number of rounds it holds, which is all that can change it."""
        snapshot = self.advance(tournament_id)
        self._participant(snapshot, player)
        self._touch(snapshot, player.id)
        t = snapshot.tournament
        return views.closed_rounds(t), views.history_view(t)

    def summary(self, tournament_id: str) -> tuple[int, dict[str, Any]]:
        """The public results (anyone may read them, no token): only once finished, after
        which they never change; with the version they were read at."""
        if is_id(tournament_id, "t"):  # a finished one never changes: no need to advance it
            stored = guarded(lambda: self.ctx.repo.get_tournament(tournament_id))
            if stored is not None and stored.tournament.finished_at is not None:
                return stored.version, views.summary_view(displayed(stored))
        snapshot = self.advance(tournament_id)  # finished by now, with nobody there to see?
        if snapshot.tournament.finished_at is None:
            raise errors.NotFound(
                f"tournament {tournament_id} has not finished yet", code="not_finished"
            )
        return snapshot.record.version, views.summary_view(displayed(snapshot.record))

    def guess(
        self,
        player: PlayerRecord,
        tournament_id: str,
        row: Any,
        word: Any,
        duel_id: Any = None,
    ) -> tuple[Snapshot, dict[str, Any]]:
        if isinstance(row, bool) or not isinstance(row, int) or row < 0:
            raise errors.BadRequest("row must be a board row number (0-based)")
        if not isinstance(word, str) or not word or len(word) > 64:
            raise errors.BadRequest("word must be a non-empty string")
        if _PLAYABLE.search(word) is None:  # no letter to play (R13: the guess uses nothing)
            raise errors.Invalid("type a word before sending it", code="invalid_characters")
        if duel_id is not None and (not isinstance(duel_id, str) or not DUEL_ID.fullmatch(duel_id)):
            raise errors.BadRequest("duel must be a duel id such as 'r3d2'")

        def attempt() -> Snapshot:
            snapshot = self.advance(tournament_id)
            self._participant(snapshot, player)
            t = snapshot.tournament
            try:
                after, events = self._play(t, player.id, row, word, snapshot.now, duel_id)
            except errors.ServiceError:
                self._touch(snapshot, player.id)  # a refused guess is contact too (D9)
                raise
            if after is t:
                self._touch(snapshot, player.id)
                return snapshot  # a retry of a row already played: same answer
            # D9: the guess is contact, stored by the guess's own write (no touch of its own).
            after = heard(after, player.id, snapshot.now)
            return Snapshot(self._save(snapshot.record, after, events), snapshot.now, True)

        snapshot = retry_on_conflict(attempt)
        view = self.view(snapshot, player)
        # The final board of the duel this guess ended, even once the next round has begun.
        ended = views.ended_by(snapshot.tournament, player.id, row, duel_id)
        if ended is not None:
            view["ended_duel"] = ended
        return snapshot, view

    def _play(
        self, t: Tournament, player_id: str, row: int, word: str, now: int, duel_id: Any
    ) -> tuple[Tournament, list[Event]]:
        try:
            tiles = wordlists.normalise(t.language, word)
        except wordlists.WordlistError as exc:
            raise errors.Invalid(str(exc), code="invalid_characters") from exc
        try:
            return tm.guess(t, player_id, row, tiles, now, self.ctx.words(t.language), duel_id)
        except GameError as exc:
            raise errors.from_game_error(exc) from exc

    def leave(self, player: PlayerRecord, tournament_id: str) -> tuple[Snapshot, dict[str, Any]]:
        """R20: an automatic loss; leaving once out costs nothing (D14)."""

        def attempt() -> Snapshot:
            snapshot = self.advance(tournament_id)
            self._participant(snapshot, player)
            t = snapshot.tournament
            after, events = tm.leave(t, player.id, snapshot.now, self.ctx.words(t.language))
            if after is t:
                return snapshot
            return Snapshot(self._save(snapshot.record, after, events), snapshot.now, True)

        snapshot = retry_on_conflict(attempt)
        return snapshot, self.view(snapshot, player)

    def duel(self, player: PlayerRecord, tournament_id: str, duel_id: str) -> dict[str, Any]:
        """R9: watch any duel of the tournament; its secret shows only once it has ended."""
        if not DUEL_ID.fullmatch(duel_id):
            raise errors.NotFound("no such duel")
        snapshot = self.advance(tournament_id)
        self._participant(snapshot, player)
        self._touch(snapshot, player.id)
        for rnd in reversed(snapshot.tournament.rounds):
            for duel in rnd.duels:
                if duel.id == duel_id:
                    return {
                        "round": rnd.number,
                        "server_time": snapshot.now,
                        **views.duel_view(duel, player.id, snapshot.now),
                    }
        raise errors.NotFound(f"duel {duel_id} not found in tournament {tournament_id}")
