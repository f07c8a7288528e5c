"""A fast `dataclasses.replace` for the frozen, slotted values of the hot paths."""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_set = object.__setattr__


def evolve(value: T, **changes: Any) -> T:
    """A copy of `value` with `changes`; like dataclasses.replace, about four times faster.

    Only for dataclasses whose __init__ merely stores its fields (no __post_init__ checks).
    """
    cls = type(value)
    new = object.__new__(cls)
    for name in cls.__slots__:  # type: ignore[attr-defined]
        _set(new, name, changes.pop(name) if name in changes else getattr(value, name))
    if changes:
        raise TypeError(f"{cls.__name__} has no fields {sorted(changes)}")
    return new
