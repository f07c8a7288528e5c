"""Which windows a rate-limit counter keeps, shared by the fake and the DynamoDB adapter.

A counter (`R#<subject>`) holds a count per window, `c<window>`, and the newest window it
counted, `l`. Only the current window and the previous one can still count (the sliding
estimate reads those two), so after every count the item holds at most those two.

One UpdateItem keeps it so without reading the item first: it adds to this window's count and
removes, by name, every window from the one before the previous back to DEPTH + 1 windows ago,
on condition that the item's newest window is at most DEPTH windows old (or that there is no
item). The item held only its newest window and the one before, so nothing older is left.
A subject idle for longer than that (and an item stored before `l` existed, or one whose newest
window is ahead of this caller's: a refund after the next window began) fails the condition;
the failed write returns the item as it was (ALL_OLD), and a conditional PutItem then replaces
it with the windows that can still count. So the common case costs one write, and a counter
idle for more than DEPTH windows costs two on its first count after the idle spell (a failed
conditional write is billed too).
"""

from __future__ import annotations

from collections.abc import Mapping

# How many windows a counter may lie idle and still be counted by one UpdateItem: 8 windows
# (80 s for a guess budget of 10 s windows, 8 minutes for a budget per minute). Each is a name
# in the update's REMOVE clause; removing a missing attribute costs nothing.
DEPTH = 8


def stale_windows(window: int) -> range:
    """The windows that the update for `window` removes (whether or not they are there)."""
    return range(window - DEPTH - 1, window - 1)


def updatable(newest: int | None, window: int) -> bool:
    """Whether a count in `window` may update an item whose newest window is `newest` (None:
    there is no item) and leave no window that cannot count."""
    return newest is None or window - DEPTH <= newest <= window


def kept(counts: Mapping[int, int], window: int, add: int) -> tuple[int, dict[int, int]]:
    """A counter's counts rebuilt for a count of `add` in `window`: (its newest window, the
    windows that can still count). A count in a window that can no longer count (older than the
    previous one of the newest) is dropped: no estimate will read it."""
    newest = max([window, *counts])
    keep = {w: n for w, n in counts.items() if w >= newest - 1}
    if window >= newest - 1:
        keep[window] = keep.get(window, 0) + add
    return newest, keep
