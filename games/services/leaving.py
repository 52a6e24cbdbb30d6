"""Taking a player out of play when their account is banned or closed (games/hooks.py,
on the ``PlayerBanned`` and ``AccountClosed`` events of games/events.py): out of the
quick-match queue, and every match they have in play ended as lost by them, inside
the caller's transaction."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from games.errors import ServiceError
from games.models import Match

from .matches import match_forfeit
from .quickmatch import quickmatch_cancel


def player_leave_play(*, user_id: int, reason: str) -> list[int]:
    """End each match in play of the user as lost by them for ``reason``
    (``Match.EndReason``: a forfeit for a suspended account, a resignation for one its
    player deletes) and take them out of the queue; returns the ids of the matches
    ended (one that ended meanwhile is left as it ended)."""
    user = get_user_model().objects.get(pk=user_id)
    quickmatch_cancel(user=user)
    ended = []
    for match in Match.objects.filter(seats__user=user, status=Match.Status.ACTIVE).distinct():
        try:
            match_forfeit(match=match, user=user, reason=reason)
        except ServiceError:
            continue  # it ended meanwhile
        ended.append(match.pk)
    return ended
