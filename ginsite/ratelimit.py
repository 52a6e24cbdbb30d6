"""The site's one rate limiter: every limit of the views, the API, the sockets and chat
is counted here, and a request over one is refused with ``ginsite.errors.RateLimited``
(429 ``rate_limited``, ``Retry-After``) or, on a socket, its error frame.

A limit is ``(count, seconds)``: at most ``count`` in ``seconds``. Three counters, for
three kinds of thing counted:

- ``hit`` / ``check``: requests of one caller (a user, a token, an address), counted
  in fixed windows in the shared cache (Redis in production), so the limit holds
  across every ASGI process: the lobby's new matches and guests, the API's requests and
  new matches. ``limit_posts`` applies it to a form view, answering over the limit with
  the view's own page, status 429 and a message saying how long to wait.
- ``TokenBucket``: the frames of one socket, in its process (bursts of ``burst``,
  ``per_second`` sustained): far above what a person clicks, it cuts a flood short
  without a round trip to Redis per frame.
- ``wait_for``: a limit on things the site records anyway (chat messages): their own
  times are the count, a window sliding with them, so nothing else is stored and a
  message that leaves the window frees a place at once.

Not django-ratelimit (PyPI 4.1.0): it counts requests of a view by a request's key,
with no counting for a socket's frames or recorded rows, and its windows start at a
time of its own per key, so each limit's "wait N s" would change.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import wraps
from typing import Any

from ginsite.errors import RateLimited

#: At most ``count`` in ``seconds``.
Rate = tuple[int, int]


def hit(scope: str, who: str, rate: Rate) -> int:
    """Count one more request of ``who`` in ``scope``; the seconds to wait if it goes
    over ``rate``, else 0."""
    from django.core.cache import cache

    count, window = rate
    now = time.time()
    start = int(now // window * window)
    key = f"ratelimit:{scope}:{who}:{start}"
    cache.add(key, 0, timeout=window + 5)
    try:
        used = cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens the window
        cache.set(key, 1, timeout=window + 5)
        used = 1
    return 0 if used <= count else max(1, int(start + window - now) + 1)


def check(scope: str, who: str, rate: Rate, message: str) -> None:
    """``hit``, refusing a request over ``rate`` with ``RateLimited``: ``message`` with
    ``{wait}`` replaced by the seconds to wait (also its ``Retry-After``)."""
    wait = hit(scope, who, rate)
    if wait:
        raise RateLimited(message.format(wait=wait), wait=wait)


def wait_for(times: Iterable[datetime], rate: Rate, now: datetime) -> int:
    """Over ``rate`` given the ``times`` already recorded in its window, newest first
    (at most ``count`` are needed): the seconds until the oldest of them leaves it
    (at least 1), else 0."""
    count, seconds = rate
    recent = [at for at in times if (now - at).total_seconds() < seconds][:count]
    if len(recent) < count:
        return 0
    return max(1, math.ceil(seconds - (now - recent[-1]).total_seconds()))


class TokenBucket:
    """One socket's frames: ``burst`` at once, ``per_second`` sustained."""

    def __init__(self, burst: int, per_second: float) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.refilled_at = time.monotonic()

    def take(self) -> bool:
        """Whether one more frame may go through now (counting it)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled_at) * self.per_second)
        self.refilled_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


View = Callable[..., Any]
#: The limits a POST counts against: (scope, who, rate) for a request.
Checks = Callable[[Any], list[tuple[str, str, Rate]]]


def limit_posts(*, checks: Checks, page: View, what: str) -> Callable[[View], View]:
    """A form view whose POST counts against ``checks(request)``: over one, ``page``
    answers with status 429 and the message "Too many ``what`` from you in a short
    time. Try again in about N minutes."; nothing is done."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: Any, *args: object, **kwargs: object) -> Any:
            if request.method == "POST":
                for scope, who, rate in checks(request):
                    wait = hit(scope, who, rate)
                    if wait:
                        return _refused(request, page, what, wait)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def _refused(request: Any, page: View, what: str, wait: int) -> Any:
    from django.contrib import messages

    minutes = max(1, round(wait / 60))
    messages.error(
        request,
        f"Too many {what} from you in a short time. Try again in about "
        f"{minutes} minute{'s' if minutes != 1 else ''}.",
    )
    response = page(request)
    response.status_code = 429
    return response
