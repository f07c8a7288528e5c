"""`bench api`, response sizes: the bytes of the state polls answered 200 (now and in the shape
the state had before), of the history as a client fetches it once a round, and of the state had
the history been inside it.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass, field
from typing import Any

# What the state carried before it showed every live duel's board, provisional places, where the
# player is, and the history's round count: to measure what they add to a poll's body.
_NEW_STATE_FIELDS = ("intro_at", "starts_at", "history_rounds", "where")
_NEW_PLAYER_FIELDS = ("rating", "out_round", "provisional")
_SUMMARY_FIELDS = ("id", "players", "rows", "word_length", "result")


def state_before(view: dict[str, Any]) -> dict[str, Any]:
    """The same state in the shape it had before (duel summaries, no story)."""
    old = {k: v for k, v in view.items() if k not in _NEW_STATE_FIELDS}
    old["players"] = [
        {k: v for k, v in p.items() if k not in _NEW_PLAYER_FIELDS} for p in view["players"]
    ]
    old["duels"] = [{k: d[k] for k in _SUMMARY_FIELDS} for d in view["duels"]]
    return old


@dataclass
class Sizes:
    """Bytes of the bodies: state polls answered 200 (now and in the former shape), and the
    history as a client fetches it, once per round."""

    state: list[int] = field(default_factory=list)
    state_before: list[int] = field(default_factory=list)
    history: list[int] = field(default_factory=list)
    state_with_history: list[int] = field(default_factory=list)  # had it been inside
    latest: dict[str, int] = field(default_factory=dict)  # each player's latest history
    # A poll's read units apart from the instance's heartbeat, for polls naming their state.
    named_poll_reads: list[float] = field(default_factory=list)
    heartbeat_reads: float = 0.0  # what the polls' scopes read of the heartbeat

    def poll(self, body: bytes, view: dict[str, Any]) -> None:
        self.state.append(len(body))
        self.state_with_history.append(len(body) + self.latest.get(view["you"], 0))
        compact = json.dumps(state_before(view), separators=(",", ":"), ensure_ascii=False)
        self.state_before.append(len(compact.encode()))


def print_sizes(sizes: Sizes) -> None:
    def spread(values: list[int]) -> str:
        return f"mean {statistics.mean(values):6.0f}, max {max(values):6d}"

    print("response bodies (bytes; a 304 has none):")
    print(f"  state poll (200), now          {spread(sizes.state)}  ({len(sizes.state)} polls)")
    print(f"  the same in the former shape   {spread(sizes.state_before)}")
    print(f"  history, once a round          {spread(sizes.history)}  ({len(sizes.history)})")
    print(
        f"  state with the history inside  {spread(sizes.state_with_history)}  (the history "
        f"would travel {len(sizes.state) / max(1, len(sizes.history)):.0f}× as often)"
    )
