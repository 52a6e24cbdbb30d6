"""Reads of the open platform (the bot API's challenges) for its views, streams and
template tags."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db.models import QuerySet
from django.utils import timezone

from .models import ApiToken, Challenge

if TYPE_CHECKING:
    from accounts.models import User

# A challenge not answered within this time expires: the person who sent it from a
# page is gone by then, and a bot must not start a match against an empty seat.
CHALLENGE_EXPIRY = timedelta(minutes=10)


def token_live(*, token_id: int | None) -> bool:
    """Whether the token (None: no token) is still unrevoked, on an active account."""
    if token_id is None:
        return True
    return ApiToken.objects.filter(
        pk=token_id, revoked_at__isnull=True, user__is_active=True
    ).exists()


def open_challenges() -> QuerySet[Challenge]:
    """Challenges still waiting for an answer (created, not expired)."""
    return Challenge.objects.filter(
        status=Challenge.Status.CREATED, created_at__gte=timezone.now() - CHALLENGE_EXPIRY
    )


def challenges_to(*, user: User) -> list[Challenge]:
    """The open challenges to ``user``, oldest first, with their challengers."""
    return list(
        open_challenges().filter(dest=user).select_related("challenger").order_by("created_at")
    )


def challenge_status(*, challenge: Challenge, now: datetime | None = None) -> str:
    """``challenge``'s status as read, or ``"expired"`` for one left unanswered too long.

    From the row already read, never from a second query: one answered between two
    reads would look open to the first and closed to the second ("expired")."""
    now = now or timezone.now()
    if challenge.status == Challenge.Status.CREATED and (
        challenge.created_at < now - CHALLENGE_EXPIRY
    ):
        return "expired"
    return challenge.status


def challenge_get(*, challenge_id: int) -> Challenge | None:
    """The challenge of that id, with both players, or None."""
    return Challenge.objects.select_related("dest", "challenger").filter(pk=challenge_id).first()
