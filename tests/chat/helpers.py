"""Helpers for the chat and moderation tests: WebSocket clients that sign in with a
real session cookie (players, moderators and tables: tests/factories.py)."""

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User

ORIGIN = (b"origin", b"http://localhost")


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
