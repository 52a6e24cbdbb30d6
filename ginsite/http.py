"""The requests the views see, typed: a signed-in one (behind ``login_required``,
staff pages) carries a ``User``; an API one (games/api/auth.py ``api_endpoint``) also
its ``api_user`` and ``api_token``. And the one reading of a JSON request body
(``json_object``, ``require_json``): every JSON route of the site and the API."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from ginsite.errors import AppError

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


JSON_TYPE = "application/json"


def require_json(request: HttpRequest) -> None:
    """Refuse (415 ``unsupported_media_type``) a request body not sent as JSON: a JSON
    route reads its body only with ``Content-Type: application/json`` (a charset may
    follow); an empty body needs no type."""
    if request.body and request.content_type != JSON_TYPE:
        raise AppError(
            f"Send the body as JSON, with Content-Type: {JSON_TYPE} "
            f"(this request said {request.content_type or 'nothing'}).",
            code="unsupported_media_type",
        )


def json_object(request: HttpRequest, *, max_bytes: int) -> dict[str, Any]:
    """The JSON object of a JSON route's body (an empty body is ``{}``), or an
    ``AppError``: ``unsupported_media_type`` (415), ``body_too_large`` (413),
    ``bad_json``, ``bad_message`` (400)."""
    require_json(request)
    if len(request.body) > max_bytes:
        raise AppError(f"Request bodies are limited to {max_bytes} bytes.", code="body_too_large")
    if not request.body.strip():
        return {}
    try:
        body = json.loads(request.body)
    except (ValueError, RecursionError):
        raise AppError("The body is not valid JSON.", code="bad_json") from None
    if not isinstance(body, dict):
        raise AppError("The body must be a JSON object.", code="bad_message")
    return body
