"""R22, D11: friends' groups, as pure decisions. Invite codes are made by the shell."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace

from core import errors
from core.timing import PLAYERS_PER_TOURNAMENT

MAX_MEMBERS = PLAYERS_PER_TOURNAMENT


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    language: str
    members: tuple[str, ...]  # in joining order: the longest-standing member leads (D11)
    invite_code: str
    created_at: int

    @property
    def leader(self) -> str | None:
        return self.members[0] if self.members else None

    @property
    def empty(self) -> bool:
        return not self.members


def create(group_id: str, language: str, leader: str, invite_code: str, now: int) -> Group:
    return Group(group_id, language, (leader,), invite_code, now)


def join(group: Group, player: str) -> Group:
    if player in group.members:
        raise errors.AlreadyMember(player)
    if len(group.members) >= MAX_MEMBERS:
        raise errors.GroupFull(group.id)
    return replace(group, members=(*group.members, player))


def remove(group: Group, actor: str, target: str) -> Group:
    """A member leaves, or the leader removes someone. If the leader leaves, the next leads."""
    if target not in group.members:
        raise errors.NotMember(target)
    if actor != target and actor != group.leader:
        raise errors.NotLeader(actor)
    return replace(group, members=tuple(m for m in group.members if m != target))


def new_invite(group: Group, actor: str, invite_code: str) -> Group:
    """D11: only the leader makes a new code, which revokes the old one."""
    if actor != group.leader:
        raise errors.NotLeader(actor)
    return replace(group, invite_code=invite_code)


def check_start(group: Group, actor: str, busy: Collection[str]) -> None:
    """R22: the leader starts, once no member is still in a tournament or lobby."""
    if actor != group.leader:
        raise errors.NotLeader(actor)
    still = tuple(m for m in group.members if m in busy)
    if still:
        raise errors.MembersBusy(still)
