"""Game timers. They are stored with each tournament, so a running game never changes pace."""

from __future__ import annotations

from dataclasses import dataclass

LIVES = 3  # R1
PLAYERS_PER_TOURNAMENT = 8  # R1
TURNS_PER_PLAYER = 6  # R10
MAX_ROWS = 2 * TURNS_PER_PLAYER  # R10: the shared board has at most 12 rows
MAX_CONTACT_INTERVAL_MS = 10_000  # D9: contact writes, at most one per player per 10 s


@dataclass(frozen=True, slots=True)
class Timing:
    """All durations in milliseconds."""

    turn_ms: int = 30_000  # R10
    intro_ms: int = 6_000  # R2
    reconnect_ms: int = 60_000  # R21

    def __post_init__(self) -> None:
        if min(self.turn_ms, self.reconnect_ms) <= 0 or self.intro_ms < 0:
            raise ValueError("timers must be positive")

    @property
    def contact_interval_ms(self) -> int:
        """D9: how often a player's contact is written at most. A sixth of the window (10 s of
        60), so a player who keeps polling is at least five sixths of a window from leaving."""
        return max(1, min(MAX_CONTACT_INTERVAL_MS, self.reconnect_ms // 6))
