"""Setting up matches for the fault tests (through the services, committed, since
the server processes read the test database) and waiting for them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async

from games import services
from games.engine import RuleSet
from games.models import Match, Move
from tests.games.helpers import make_user
from tests.games.sockets import session_cookie

NO_CLOCK = RuleSet.time_freedom()


def people_matches(user_model: Any, count: int, prefix: str) -> list[tuple[Match, Any, Any]]:
    """``count`` started matches between two registered players each."""
    matches = []
    for index in range(count):
        host = make_user(user_model, f"{prefix}{index}a")
        guest = make_user(user_model, f"{prefix}{index}b")
        match = services.match_create_invite(user=host, rules=NO_CLOCK, variant="time_freedom")
        match = services.match_join_invite(user=guest, token=match.invite_token)
        matches.append((match, host, guest))
    return matches


def cookie(user: Any) -> str:
    return session_cookie(user).decode()


@database_sync_to_async
def versions(match_ids: list[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


@database_sync_to_async
def move_log(match_id: int) -> list[Move]:
    return list(Move.objects.filter(match_id=match_id).order_by("seq"))


async def wait_for(condition: Callable[[], Any], timeout: float, what: str) -> None:
    """Await ``condition()`` (a coroutine function returning truth) until it holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await condition():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
