"""The requests the views see, typed: a signed-in one (behind ``login_required``,
staff pages) carries a ``User``; an API one (games/api/auth.py ``api_endpoint``) also
its ``api_user`` and ``api_token``. The sign-in a JSON route requires
(``sign_in_required``). And the one reading of a JSON request body (``json_object``,
``require_json``): every JSON route of the site and the API."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from ginsite.errors import BadRequest, BodyTooLarge, Unauthorized, UnsupportedMediaType, wants_json

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
        raise PermissionDenied(_("Sign in first."))
    return user


def sign_in_required(view: Callable[..., Any]) -> Callable[..., Any]:
    """``login_required`` for a route that answers JSON: a JSON request (ginsite/errors.py
    ``wants_json``) not signed in is refused 401 ``not_signed_in``; a page's request
    goes to the sign-in page, as ``login_required`` sends it."""
    page = login_required(view)

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if not request.user.is_authenticated and wants_json(request):
            raise Unauthorized(_("Sign in first."), code="not_signed_in")
        return page(request, *args, **kwargs)

    return wrapped


JSON_TYPE = "application/json"


def require_json(request: HttpRequest) -> None:
    """Refuse (415 ``unsupported_media_type``) a request body not sent as JSON: a JSON
    route reads its body only with ``Content-Type: application/json`` (a charset may
    follow); an empty body needs no type."""
    if request.body and request.content_type != JSON_TYPE:
        raise UnsupportedMediaType(
            f"Send the body as JSON, with Content-Type: {JSON_TYPE} "
            f"(this request said {request.content_type or 'nothing'})."
        )


def json_object(request: HttpRequest, *, max_bytes: int) -> dict[str, Any]:
    """The JSON object of a JSON route's body (an empty body is ``{}``), or an
    ``AppError``: ``unsupported_media_type`` (415), ``body_too_large`` (413),
    ``bad_json``, ``bad_message`` (400)."""
    require_json(request)
    if len(request.body) > max_bytes:
        raise BodyTooLarge(f"Request bodies are limited to {max_bytes} bytes.")
    if not request.body.strip():
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, RecursionError):
        raise BadRequest(_("The body is not valid JSON."), code="bad_json") from None
    if not isinstance(body, dict):
        raise BadRequest(_("The body must be a JSON object."), code="bad_message")
    return body
