"""``fairplay_notices`` in every template: what moderators decided about the signed-in
player that they have not dismissed yet (base.html shows them above the page)."""

from django.http import HttpRequest

from .selectors import unread_notices


def notices(request: HttpRequest) -> dict:
    return {"fairplay_notices": unread_notices(user=getattr(request, "user", None))}
