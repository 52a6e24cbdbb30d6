"""The requests the views see, typed: a signed-in one (behind ``login_required``,
staff pages) carries a ``User``; an API one (games/api/auth.py ``api_endpoint``) also
its ``api_user`` and ``api_token``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

if TYPE_CHECKING:
    from accounts.models import User


class SignedInRequest(HttpRequest):
    user: User


class ApiRequest(HttpRequest):
    api_user: Any  # the token's user (or None on a route whose token is optional)
    api_token: Any


def signed_in_user(request: HttpRequest) -> User | None:
    """The request's signed-in user, or None."""
    return request.user if request.user.is_authenticated else None


def required_user(request: HttpRequest) -> User:
    """The signed-in user of a page that needs one (``login_required``, the admin,
    a view that signed a guest in or checked): PermissionDenied if there is none."""
    user = signed_in_user(request)
    if user is None:
        raise PermissionDenied("Sign in first.")
    return user
