"""The table settings in every template: ``display_prefs`` (the Profile: a registered
player's own, defaults otherwise), ``display_attrs`` (its data attributes for <html>:
accounts/display.py) and ``prefs_source`` (``account``, or ``browser`` for a visitor or
a guest, whose settings the browser keeps and applies before the first paint)."""

from django.http import HttpRequest

from .display import html_attributes
from .models import Profile
from .selectors import profile_get


def display_preferences(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        profile = profile_get(user=user)
        source = "browser" if user.is_guest else "account"
    else:
        profile, source = Profile(), "browser"
    return {
        "display_prefs": profile, "display_attrs": html_attributes(profile),
        "prefs_source": source,
    }
