"""What fair play does when others tell it something: a rated match finished
(games/events.py ``MatchFinished``, subscribed after commit in games/fairplay/apps.py:
the pair is checked off the request path), a player signed up or signed in (Django's
``user_logged_in`` and allauth's ``user_signed_up``: the hashed signals recorded), and
the migrations ran (the Moderators group may read the cases)."""

from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.contrib.auth.models import Group, Permission
from django.http import HttpRequest

from accounts.models import User
from accounts.services import MODERATORS_GROUP
from games.events import MatchFinished
from ginsite.client_ip import client_address

from . import services

#: Whether a finished rated match has its pair checked at once (the simulator turns it
#: off and runs the periodic detection itself after each round).
CHECK_AFTER_MATCH = True


def on_match_finished(event: MatchFinished) -> None:
    """Subscribed ``after_commit``: a rated match between two accounts has its pair
    checked on the worker (or the embedded background thread)."""
    if CHECK_AFTER_MATCH:
        services.match_finished(event)


def _record(kind: str, request: HttpRequest | None, user: User | None) -> None:
    if request is None or user is None:
        return
    services.signal_record(
        user=user, kind=kind, address=client_address(request),
        agent=request.META.get("HTTP_USER_AGENT", ""),
    )


def on_signed_in(sender: Any, request: HttpRequest | None = None, user: User | None = None,
                 **kwargs: Any) -> None:
    _record("session", request, user)


def on_signed_up(sender: Any = None, request: HttpRequest | None = None,
                 user: User | None = None, **kwargs: Any) -> None:
    _record("signup", request, user)


def moderators_may_read_cases(app_config: AppConfig, **kwargs: Any) -> None:
    """After fair play's migrations: the Moderators group (accounts.services) may read
    the queue; deciding goes through the services, which check ``accounts.moderate``."""
    if app_config.label != "fairplay":
        return
    group, _ = Group.objects.get_or_create(name=MODERATORS_GROUP)
    group.permissions.add(*Permission.objects.filter(
        content_type__app_label="fairplay", codename="view_case"))
