"""The chat rooms another app owns (a tournament's room, ``"tournament"``): who may read
and who may write there is that app's rule, which it registers here from its
``AppConfig.ready()`` (games/tournaments/apps.py). Chat is used by the core of play
and by accounts, so it imports none of the apps above them (pyproject.toml's
contracts); a room of a kind nobody registered is closed to everyone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from accounts.models import User

#: ``(user, room id) -> allowed``.
Rule = Callable[["User", int], bool]


@dataclass(frozen=True)
class Room:
    may_read: Rule
    may_write: Rule


_rooms: dict[str, Room] = {}


def register(kind: str, *, may_read: Rule, may_write: Rule) -> None:
    """The rule of the rooms of ``kind`` (registering it again replaces it)."""
    _rooms[kind] = Room(may_read=may_read, may_write=may_write)


def may_read(kind: str, *, user: User, room_id: int) -> bool:
    room = _rooms.get(kind)
    return room is not None and room.may_read(user, room_id)


def may_write(kind: str, *, user: User, room_id: int) -> bool:
    room = _rooms.get(kind)
    return room is not None and room.may_write(user, room_id)
