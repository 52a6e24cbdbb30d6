"""The lobby's limits on POSTs that create rows, counted by ginsite/ratelimit.py (the
site's one rate limiter): new matches (against the computer, invitations, the
quick-match queue) per signed-in user and per client address, and guest accounts per
address (settings ``MATCH_CREATE_LIMIT``, ``MATCH_CREATE_IP_LIMIT``,
``GUEST_CREATE_IP_LIMIT``). The address is ginsite/client_ip.py's, the one allauth's
login throttling counts. A refused request changes nothing and is answered 429 with the
page the view names (the lobby) and a message saying how long to wait; this module
renders no page of its own and imports no view.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from ginsite.client_ip import client_address
from ginsite.ratelimit import Rate, limit_posts

View = Callable[..., HttpResponse]


def limit_match_creation(*, page: View, may_create_guest: bool = False) -> Callable[[View], View]:
    """A POST that would create a match counts against the caller's limits (over them,
    ``page`` answers with status 429); with ``may_create_guest`` a visitor not signed
    in also counts against the guest-account limit (the view signs them in as a new
    guest first)."""

    def checks(request: HttpRequest) -> list[tuple[str, str, Rate]]:
        address = client_address(request)
        found = [("match-ip", address, settings.MATCH_CREATE_IP_LIMIT)]
        if request.user.is_authenticated:
            found.append(("match-user", str(request.user.pk), settings.MATCH_CREATE_LIMIT))
        elif may_create_guest:
            found.append(("guest-ip", address, settings.GUEST_CREATE_IP_LIMIT))
        return found

    return limit_posts(checks=checks, page=page, what="new matches")


def limit_guest_creation(*, page: View) -> Callable[[View], View]:
    """A POST that signs a visitor in as a new guest counts against the address (over
    the limit, ``page`` answers with status 429)."""

    def checks(request: HttpRequest) -> list[tuple[str, str, Rate]]:
        if request.user.is_authenticated:
            return []
        return [("guest-ip", client_address(request), settings.GUEST_CREATE_IP_LIMIT)]

    return limit_posts(checks=checks, page=page, what="guest accounts")


def match_creation_check(*, user_id: int) -> None:
    """A new match asked for through the bot API counts against the account's limit of
    new matches, the same as the lobby's: ``RateLimited`` over it."""
    from ginsite.ratelimit import check

    check("match-user", str(user_id), settings.MATCH_CREATE_LIMIT,
          "Too many new matches: wait {wait} s.")
