"""Precise errors for every rule a command can break.

Each error carries what was wrong, and a stable `code` the API turns into its JSON error.
"""

from __future__ import annotations


class GameError(Exception):
    """A command that the rules do not allow. Nothing changed."""

    code = "game_error"


class UnknownPlayer(GameError):
    code = "unknown_player"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} is not in this tournament")
        self.player_id = player_id


class NotInDuel(GameError):
    code = "not_in_duel"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} has no duel in play")
        self.player_id = player_id


class IntroInProgress(GameError):
    code = "intro_in_progress"

    def __init__(self, starts_at: int) -> None:
        super().__init__(f"the round starts at {starts_at}")
        self.starts_at = starts_at


class NotYourTurn(GameError):
    code = "not_your_turn"

    def __init__(self, player_id: str, to_play: str) -> None:
        super().__init__(f"it is {to_play!r}'s turn, not {player_id!r}'s")
        self.player_id = player_id
        self.to_play = to_play


class DuelOver(GameError):
    code = "duel_over"

    def __init__(self, duel_id: str) -> None:
        super().__init__(f"duel {duel_id} is over")
        self.duel_id = duel_id


class StaleRow(GameError):
    """The client played a board row that is no longer (or not yet) the current one."""

    code = "stale_row"

    def __init__(self, expected: int, given: int) -> None:
        super().__init__(f"the current row is {expected}, not {given}")
        self.expected = expected
        self.given = given


class InvalidGuess(GameError):
    """R13: the guess is refused, the turn and its clock keep running."""

    code = "invalid_guess"


class WrongLength(InvalidGuess):
    code = "wrong_length"

    def __init__(self, expected: int, given: int) -> None:
        super().__init__(f"the word has {expected} letters, the guess has {given}")
        self.expected = expected
        self.given = given


class NotInWordList(InvalidGuess):
    code = "not_in_word_list"

    def __init__(self, word: tuple[str, ...]) -> None:
        super().__init__(f"{''.join(word)!r} is not in the word list")
        self.word = word


class TournamentOver(GameError):
    code = "tournament_over"

    def __init__(self) -> None:
        super().__init__("the tournament is over")


class AlreadyOut(GameError):
    code = "already_out"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} is already out of the tournament")
        self.player_id = player_id


class LobbyFull(GameError):
    code = "lobby_full"

    def __init__(self, lobby_id: str) -> None:
        super().__init__(f"lobby {lobby_id} is full")
        self.lobby_id = lobby_id


class NotEligible(GameError):
    """R18/D6: the lobby's language or rating window does not admit the player."""

    code = "not_eligible"


class AlreadySeated(GameError):
    code = "already_seated"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} is already seated")
        self.player_id = player_id


class NotSeated(GameError):
    code = "not_seated"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} is not in this lobby")
        self.player_id = player_id


class GroupFull(GameError):
    code = "group_full"

    def __init__(self, group_id: str) -> None:
        super().__init__(f"group {group_id} already has 8 members")
        self.group_id = group_id


class NotLeader(GameError):
    code = "not_leader"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} does not lead this group")
        self.player_id = player_id


class NotMember(GameError):
    code = "not_member"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} is not in this group")
        self.player_id = player_id


class AlreadyMember(GameError):
    code = "already_member"

    def __init__(self, player_id: str) -> None:
        super().__init__(f"player {player_id!r} is already in this group")
        self.player_id = player_id


class MembersBusy(GameError):
    """R22: the leader can start again only once no member is still in a tournament."""

    code = "members_busy"

    def __init__(self, busy: tuple[str, ...]) -> None:
        super().__init__(f"members still playing: {', '.join(busy)}")
        self.busy = busy


class InvalidNickname(GameError):
    """R25: why a nickname is refused, as a stable `reason` a client can explain in its own
    language: "length", "invisible", "characters" (with the `characters` refused), "letter",
    "blocked" (a blocked word), or "look_alike" (the service's check against its neighbours)."""

    code = "invalid_nickname"

    def __init__(self, message: str, reason: str, characters: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.reason = reason
        self.characters = characters


class DuelInPlay(GameError):
    """D19: a duel's analysis exists only once the duel has ended."""

    code = "duel_in_play"

    def __init__(self, duel_id: str) -> None:
        super().__init__(f"duel {duel_id} is still being played: its analysis comes once it ends")
        self.duel_id = duel_id
