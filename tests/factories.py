"""The test suite's one set of factories: players, moderators, a table.

Every test makes its users here (a browser test passes its sign-in password); the
``make_user`` and ``moderator`` fixtures of tests/conftest.py hand these out.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group

from accounts.models import User
from accounts.services import MODERATORS_GROUP, moderators_group_ensure
from games.models import Match, Seat


def create_user(username: str, password: str | None = None, **fields: Any) -> User:
    """A registered player (no password unless given: hashing one costs ~0.3 s here)."""
    return User.objects.create_user(
        username=username, email=f"{username}@example.com", password=password, **fields
    )


def create_moderator(username: str = "mod", password: str | None = None) -> User:
    """A staff member in the Moderators group."""
    moderators_group_ensure()
    user = create_user(username, password, is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return user


def create_table(*players: User, status: str = Match.Status.ACTIVE) -> Match:
    """A friends' match between ``players`` at version 3, without a hand."""
    match = Match.objects.create(kind=Match.Kind.FRIEND, rules={}, status=status, version=3)
    for index, player in enumerate(players):
        Seat.objects.create(match=match, index=index, user=player)
    return match
