"""Rate limits on the lobby's POSTs that create rows: new matches (against the
computer, invitations, the quick-match queue) and guest accounts.

Each limit is a count per window in seconds, kept in the shared cache (Redis in
production, so it holds across every ASGI process), per signed-in user and per
client address. The address is allauth's (``ALLAUTH_TRUSTED_PROXY_COUNT`` tells how
many proxies, e.g. nginx, append to ``X-Forwarded-For``), the same one its login
throttling uses. A refused request changes nothing and is answered 429 with the
page the view names (the lobby) and a message saying how long to wait; this module
renders no page of its own and imports no view.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

from ginsite.client_ip import client_address

View = Callable[..., HttpResponse]


def hit(bucket: str, who: str, limit: tuple[int, int]) -> int:
    """Count one more request of ``who`` in ``bucket``; returns the seconds to wait
    if it goes over ``limit`` (count, window seconds), else 0."""
    count, window = limit
    now = time.time()
    start = int(now // window * window)
    key = f"ratelimit:{bucket}:{who}:{start}"
    cache.add(key, 0, timeout=window + 5)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens the window
        cache.set(key, 1, timeout=window + 5)
        used = 1
    return 0 if used <= count else max(1, int(start + window - now) + 1)


def _refused(request: HttpRequest, page: View, what: str, wait: int) -> HttpResponse:
    minutes = max(1, round(wait / 60))
    messages.error(
        request,
        f"Too many {what} from you in a short time. Try again in about "
        f"{minutes} minute{'s' if minutes != 1 else ''}.",
    )
    response = page(request)
    response.status_code = 429
    return response


def limit_match_creation(*, page: View, may_create_guest: bool = False) -> Callable[[View], View]:
    """A POST that would create a match counts against the caller's limits (over them,
    ``page`` answers with status 429); with ``may_create_guest`` a visitor not signed
    in also counts against the guest-account limit (the view signs them in as a new
    guest first)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method == "POST":
                address = client_address(request)
                checks = [("match-ip", address, settings.MATCH_CREATE_IP_LIMIT)]
                if request.user.is_authenticated:
                    checks.append(
                        ("match-user", str(request.user.pk), settings.MATCH_CREATE_LIMIT)
                    )
                elif may_create_guest:
                    checks.append(("guest-ip", address, settings.GUEST_CREATE_IP_LIMIT))
                for bucket, who, limit in checks:
                    wait = hit(bucket, who, limit)
                    if wait:
                        return _refused(request, page, "new matches", wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def limit_guest_creation(*, page: View) -> Callable[[View], View]:
    """A POST that signs a visitor in as a new guest counts against the address (over
    the limit, ``page`` answers with status 429)."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method == "POST" and not request.user.is_authenticated:
                address = client_address(request)
                wait = hit("guest-ip", address, settings.GUEST_CREATE_IP_LIMIT)
                if wait:
                    return _refused(request, page, "guest accounts", wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
