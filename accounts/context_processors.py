"""``display_prefs`` in every template: the signed-in player's display preferences
(defaults for visitors), applied by base.html as data attributes on <html>."""

from django.http import HttpRequest

from .models import Profile
from .selectors import profile_get


def display_preferences(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {"display_prefs": profile_get(user=user)}
    return {"display_prefs": Profile()}
