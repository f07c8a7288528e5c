"""The in-memory fake of the repository, with DynamoDB's semantics (tests, `bench scale`)."""

from api.storage.memory.repository import InMemoryRepository

__all__ = ["InMemoryRepository"]
