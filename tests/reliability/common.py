"""Setting up matches for the fault tests (through the services, committed, since
the server processes read the test database) and waiting for them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async

from games.engine import RuleSet
from games.models import Hand, Match, Move, Seat
from tests.factories import create_match, create_user
from tests.games.helpers import states_by_version
from tests.games.sockets import session_cookie
from tests.security.secrets import assert_hides_secrets

NO_CLOCK = RuleSet.time_freedom()


def people_matches(
    count: int, prefix: str, rules: RuleSet | None = None
) -> list[tuple[Match, Any, Any]]:
    """``count`` started matches (no clock) between two registered players each."""
    pairs = [(create_user(f"{prefix}{i}a"), create_user(f"{prefix}{i}b")) for i in range(count)]
    return [(create_match(host, guest, rules=rules, variant="time_freedom"), host, guest)
            for host, guest in pairs]


def cookie(user: Any) -> str:
    return session_cookie(user).decode()


@database_sync_to_async
def versions(match_ids: list[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


@database_sync_to_async
def waiting_on(match_ids: list[int]) -> dict[int, tuple[Any, ...]]:
    """Per match: its status, the seat to move, whether it is the computer's, and the
    clock check planned (for a failure's message: who the match waits for)."""
    rows = Match.objects.filter(pk__in=match_ids).values_list(
        "pk", "status", "current_seat", "clock_due_at"
    )
    bots = set(
        Seat.objects.filter(match_id__in=match_ids).exclude(bot_level="")
        .values_list("match_id", "index")
    )
    return {pk: (status, seat, (pk, seat) in bots, due) for pk, status, seat, due in rows}


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


@database_sync_to_async
def assert_frames_hide_secrets(match_id: int, frames_by_seat: list[tuple[int, list[dict]]]) -> int:
    """Every state frame the players received, against the deal rebuilt from the
    log: no hidden card, no seed of a hand in play. Returns how many frames were
    labelled with an older version than the table they show (see below).

    A resync built while the other process commits a move can carry the version
    read just before that move and the hand read just after it (the selector reads
    the match row and the hand in two statements): the frame then shows the next
    position under the older version, and the player's action on it is answered
    ``stale_version`` with a fresh state. Such a frame is checked against the
    position it shows.
    """
    match = Match.objects.get(pk=match_id)
    truth = states_by_version(match)
    versions_known = sorted(truth)
    seeds = {h.number: bytes(h.seed).hex() for h in Hand.objects.filter(match=match)}
    behind = 0
    for seat, frames in frames_by_seat:
        for frame in frames:
            label = max(v for v in versions_known if v <= frame["version"])
            later = [v for v in versions_known if v >= label][:4]
            shown = next((v for v in later if _shows(frame, truth[v], seat)), None)
            assert shown is not None, f"frame {frame['version']} shows no real position"
            behind += shown != label
            assert_hides_secrets(frame, seat, truth[shown], seeds)
    return behind


def _shows(frame: dict, state: Any, seat: int) -> bool:
    view = frame["view"]
    if state.phase == "over" or view is None:
        return True
    return view["hand"] == [str(c) for c in state.hands[seat]] and view["discard_pile"] == [
        str(c) for c in state.discard_pile
    ]
