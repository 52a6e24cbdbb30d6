"""Authentication and rate limits of the API: ``Authorization: Bearer TOKEN``.

``api_endpoint`` wraps a view (sync or async): it checks the method, reads the
token (required, or optional for public reads), and counts the request against the
token's limit (per address without a token). It refuses by raising: 401
``unauthorized`` (no token) or ``invalid_token`` (unknown, revoked, or its account
banned), 429 ``rate_limited`` with ``Retry-After``, 405 ``method_not_allowed`` with
``Allow``; ginsite.errors.RefusalMiddleware answers these, and any ``AppError`` the
view raises, with ``{"error": {"code", "message"}}`` and the class's status. The
view finds the account in ``request.api_user`` (None for an anonymous read). The
wrapper carries ``api_methods`` and ``api_token`` for the OpenAPI document
(games/api/openapi.py). CSRF does not apply: no cookie authenticates these requests.
The API speaks to programs: its refusals' messages are English whatever the request's
``Accept-Language`` (the view runs in settings.LANGUAGE_CODE), so they stay the same for
every client (docs/bot-api.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt

from games.db_threads import released
from ginsite.client_ip import client_address
from ginsite.errors import AppError, MethodNotAllowed
from ginsite.http import ApiRequest
from ginsite.ratelimit import check

from .tokens import api_token_authenticate

TOO_MANY = "Too many requests: wait {wait} s."


def bearer(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def check_request(request: ApiRequest, methods: tuple[str, ...], token: str) -> None:
    """Authenticate and count ``request``, or raise its refusal."""
    request.api_user = None
    request.api_token = None
    raw = bearer(request)
    if raw is not None:
        found = api_token_authenticate(raw)
        if found is None:
            raise AppError(
                "This token is unknown or revoked, or its account is closed.",
                code="invalid_token",
            )
        request.api_token, request.api_user = found, found.user
    elif token == "required":
        raise AppError(
            "Send a personal API token: Authorization: Bearer TOKEN.", code="unauthorized"
        )
    # Over the limit: RateLimited (429, Retry-After), answered by ginsite/errors.py.
    if request.api_token is not None:
        check("api-token", str(request.api_token.pk), settings.API_RATE_LIMIT, TOO_MANY)
    else:
        check("api-ip", client_address(request), settings.API_ANON_RATE_LIMIT, TOO_MANY)
    if request.method not in methods:
        raise MethodNotAllowed(methods=methods)


def api_endpoint(*methods: str, token: str = "required") -> Callable[[Callable], Callable]:
    """Decorate an API view: ``methods`` allowed, ``token`` "required" or "optional"."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        if asyncio.iscoroutinefunction(view):

            @wraps(view)
            async def wrapped_async(request: ApiRequest, *args: Any, **kwargs: Any) -> Any:
                with translation.override(settings.LANGUAGE_CODE):
                    # The connection the check took goes back to the process's pool at
                    # once, not when the view (a stream) ends.
                    await sync_to_async(released(check_request))(request, methods, token)
                    return await view(request, *args, **kwargs)

            wrapped: Callable[..., Any] = wrapped_async
        else:

            @wraps(view)
            def wrapped_sync(request: ApiRequest, *args: Any, **kwargs: Any) -> Any:
                with translation.override(settings.LANGUAGE_CODE):
                    check_request(request, methods, token)
                    return view(request, *args, **kwargs)

            wrapped = wrapped_sync
        wrapped.api_methods = methods  # type: ignore[attr-defined]
        wrapped.api_token = token  # type: ignore[attr-defined]
        return csrf_exempt(wrapped)

    return decorate
