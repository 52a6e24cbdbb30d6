"""``social_unread`` in every template: the signed-in player's unread notifications, the
bell's count in the header (social/static/social/notifications.js keeps it live)."""

from django.http import HttpRequest

from .selectors import unread_count


def bell(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.is_guest:
        return {}
    return {"social_unread": unread_count(user=user)}
