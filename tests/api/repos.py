"""Repositories that observe or break another one: every call of the Repository protocol is
forwarded through `_call(name, *args)` (the arguments as the protocol names them, defaults
filled in), which a subclass overrides."""

from __future__ import annotations

import inspect
import threading
from functools import partial
from typing import Any

from api.storage.repository import Repository, Unavailable

# The protocol's methods, with their signatures (to name the arguments of every call alike).
METHODS = {
    name: inspect.signature(member)
    for name, member in inspect.getmembers(Repository, inspect.isfunction)
    if not name.startswith("_")
}


class RepoProxy:
    """A repository that forwards every call to another one (subclass to observe or break it)."""

    def __init__(self, inner: Repository) -> None:
        self.inner = inner
        self.layout = inner.layout

    def __getattr__(self, name: str) -> Any:
        if name not in METHODS:
            raise AttributeError(name)
        return partial(self._forward, name)

    def _forward(self, name: str, *args: Any, **kwargs: Any) -> Any:
        bound = METHODS[name].bind(self, *args, **kwargs)
        bound.apply_defaults()
        return self._call(name, *bound.args[1:], **bound.kwargs)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.inner, name)(*args, **kwargs)


class CountingRepo(RepoProxy):
    """Records every call as (method name, args)."""

    def __init__(self, inner: Repository) -> None:
        super().__init__(inner)
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self._lock = threading.Lock()

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.calls.append((name, args))
        return super()._call(name, *args, **kwargs)

    def calls_to(self, name: str) -> int:
        return sum(1 for n, _ in self.calls if n == name)

    def reset(self) -> None:
        self.calls.clear()


class BrokenRepo(RepoProxy):
    """Raises Unavailable from every method while `down` is set."""

    def __init__(self, inner: Repository, retry_after: int = 7) -> None:
        super().__init__(inner)
        self.down = False
        self.retry_after = retry_after

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if self.down:
            raise Unavailable("the store is down (test)", retry_after=self.retry_after)
        return super()._call(name, *args, **kwargs)
