"""Guests keep their history by signing up: the guest's own User row (and with it every
match it played) becomes the registered account, instead of a new, empty one, and the
table settings their browser kept become the account's. The
site's allauth adapter also tells a suspended player why, and keeps allauth's pages
pages (no AJAX JSON bodies)."""

import json
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.mixins import RedirectAuthenticatedUserMixin
from allauth.account.views import SignupView
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render

from accounts.selectors import active_ban
from accounts.services import profile_adopt_browser_settings


def _is_guest(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated and getattr(user, "is_guest", False))


def _adopt_table_settings(request: HttpRequest, user: Any) -> None:
    """The table settings the visitor's browser kept (the sign-up form's hidden field,
    filled by games/static/games/prefs.js) become the new account's."""
    raw = request.POST.get("table_settings", "")
    if not raw or len(raw) > 2000:
        return
    try:
        attributes = json.loads(raw)
    except ValueError:
        return
    profile_adopt_browser_settings(user=user, attributes=attributes)


class AccountAdapter(DefaultAccountAdapter):
    def new_user(self, request: HttpRequest) -> Any:
        if _is_guest(request):
            return request.user
        return super().new_user(request)

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        user.is_guest = False
        user = super().save_user(request, user, form, commit=commit)
        if user.pk is not None:
            _adopt_table_settings(request, user)
        return user

    def respond_user_inactive(self, request: HttpRequest, user: Any) -> HttpResponse:
        """A suspended player who gives the right password reads why, since when and
        for how long (bans last until a moderator lifts them), instead of allauth's
        bare "This account is inactive"."""
        ban = active_ban(user=user)
        return render(request, "account/account_inactive.html", {"ban": ban}, status=403)

    def is_ajax(self, request: HttpRequest) -> bool:
        """Never: the account pages answer as pages, even a request that sends or asks
        for JSON. allauth's AJAX mode (its own JSON bodies of a form) is not used by the
        site, and would be a second refusal shape beside ginsite/errors.py's."""
        return False


class GuestAwareSignupView(SignupView):
    """allauth's signup, open to a signed-in guest (allauth sends every signed-in
    user away from it)."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if _is_guest(request):
            return super(RedirectAuthenticatedUserMixin, self).dispatch(request, *args, **kwargs)
        return super().dispatch(request, *args, **kwargs)
