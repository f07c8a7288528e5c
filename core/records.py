"""A fast `dataclasses.replace` for the frozen, slotted records of the hot paths."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_set = object.__setattr__


def evolve(record: T, **changes: Any) -> T:
    """A copy of `record` with `changes`; like dataclasses.replace, about four times faster.

    Only for records whose __init__ merely stores its fields (no __post_init__ checks).
    """
    cls = type(record)
    new = object.__new__(cls)
    for name in cls.__slots__:  # type: ignore[attr-defined]
        _set(new, name, changes.pop(name) if name in changes else getattr(record, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no fields {sorted(changes)}")
    return new
