"""Helpers for the chat and moderation tests: players, moderators, a table, and
WebSocket clients that sign in with a real session cookie."""

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group
from django.test import Client

from accounts.models import User
from accounts.services import MODERATORS_GROUP, moderators_group_ensure
from games.models import Match, Seat

ORIGIN = (b"origin", b"http://localhost")


def create_user(username: str, password: str | None = None, **fields: object) -> User:
    """A registered player (no password unless given: hashing one costs ~0.3 s here)."""
    return User.objects.create_user(
        username=username, email=f"{username}@example.com", password=password, **fields
    )


def create_moderator(username: str = "mod") -> User:
    moderators_group_ensure()
    user = create_user(username, is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return user


def create_table(*players: User, status: str = Match.Status.ACTIVE) -> Match:
    match = Match.objects.create(kind=Match.Kind.FRIEND, rules={}, status=status, version=3)
    for index, player in enumerate(players):
        Seat.objects.create(match=match, index=index, user=player)
    return match


def session_cookie(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


async def ws_connect(user: User | None, path: str = "/ws/lobby/") -> WebsocketCommunicator:
    """A connected WebSocket client of the real ASGI application, signed in as ``user``."""
    from ginsite.asgi import application

    headers = [ORIGIN]
    if user is not None:
        cookie = await database_sync_to_async(session_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected, f"{path} refused the connection"
    return communicator


async def receive_type(client: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict:
    """The next frame of type ``kind`` (frames of other types are skipped)."""
    while True:
        frame = await client.receive_json_from(timeout=timeout)
        if frame["type"] == kind:
            return frame
