"""The language and the time zone each request is answered in, and the browser's
catalog of translations.

Language: the account's saved choice (``User.language``, set from the footer's
chooser: accounts.views.language_choose), else the cookie the chooser sets (a visitor's
choice), else the browser's ``Accept-Language``, else English; the URL never carries
it. Time zone: the ``tz`` cookie the browser's ``games/site.js`` sets from
``Intl.DateTimeFormat`` (an IANA name), else UTC; the boards' weeks and months stay
in UTC whatever the zone (leaderboards, and their pages say so).

The translations live in ``locale/<code>/LC_MESSAGES/`` (``django.po`` for templates
and Python, ``djangojs.po`` for the browser code), compiled ``.mo`` files committed
beside them; ``tests/test_translations.py`` checks they are complete. The browser
code reads its strings through Django's ``JavaScriptCatalog``, served per language at
``/jsi18n/<code>.js`` (an external script: the Content Security Policy allows no
inline one), which defines the globals ``gettext``, ``ngettext``, ``interpolate``
and ``pgettext``.
"""

from __future__ import annotations

import zoneinfo
from typing import Any
from urllib.parse import unquote

from django.conf import settings
from django.http import Http404, HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.locale import LocaleMiddleware
from django.utils import timezone, translation
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

TIME_ZONE_COOKIE = "tz"


def supported(code: str | None) -> str | None:
    """``code`` if the site speaks it (a code of settings.LANGUAGES), else None."""
    if not code:
        return None
    code = code.lower()
    return code if code in dict(settings.LANGUAGES) else None


def request_time_zone(request: HttpRequest) -> zoneinfo.ZoneInfo | None:
    name = unquote(request.COOKIES.get(TIME_ZONE_COOKIE, ""))
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class SiteLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware (cookie, then Accept-Language), with the account's
    saved language first, and the browser's time zone. Runs after authentication."""

    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        saved = supported(getattr(user, "language", "")) if user is not None else None
        if saved and user is not None and user.is_authenticated:
            translation.activate(saved)
            request.LANGUAGE_CODE = translation.get_language()
        else:
            super().process_request(request)
        zone = request_time_zone(request)
        if zone is not None:
            timezone.activate(zone)
        else:
            timezone.deactivate()


def socket_language(scope: dict[str, Any]) -> str:
    """The language of a WebSocket's person, as a page's: the account's, else the
    chooser's cookie, else Accept-Language, else English."""
    user = scope.get("user")
    saved = supported(getattr(user, "language", "")) if user is not None else None
    if saved and getattr(user, "is_authenticated", False):
        return saved
    headers = {
        k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())
    }
    cookies = scope.get("cookies") or {}
    chosen = supported(cookies.get(settings.LANGUAGE_COOKIE_NAME))
    if chosen:
        return chosen
    accept = headers.get("accept-language", "")
    if accept:
        from django.utils.translation.trans_real import parse_accept_lang_header

        for code, _ in parse_accept_lang_header(accept):
            found = supported(code) or supported(code.split("-")[0])
            if found:
                return found
    return settings.LANGUAGE_CODE


class SocketLanguageMiddleware:
    """Channels middleware (inside the authentication stack): a socket's frames are
    written in its person's language (``socket_language``), for the whole connection."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        with translation.override(socket_language(scope)):
            return await self.inner(scope, receive, send)


_catalog = JavaScriptCatalog.as_view(domain="djangojs")


@require_GET
@cache_control(public=True, max_age=3600)
def javascript_catalog(request: HttpRequest, language: str) -> HttpResponseBase:
    """The browser code's translations in ``language``: ``gettext`` and its kin as
    globals (Django's JavaScriptCatalog)."""
    code = supported(language)
    if code is None:
        raise Http404("No such language.")
    with translation.override(code):
        response = _catalog(request)
    response["Content-Language"] = code
    return response
