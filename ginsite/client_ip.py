"""The address a request came from, for the rate limits: what django-allauth reads for
its own (the peer's address, or behind ``TRUSTED_PROXY_COUNT`` proxies the address
they recorded in ``X-Forwarded-For``: settings ``ALLAUTH_TRUSTED_PROXY_COUNT``, and
docs/operations.md), so that the site's limits and allauth's count the same client.

The one module of the site that uses allauth's internal
``allauth.core.internal.httpkit.get_client_ip`` (tests/test_internals.py fails on an
upgrade that removes it; django-allauth is pinned exactly in pyproject.toml).
"""

from __future__ import annotations

from allauth.core.internal.httpkit import get_client_ip
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The request's client address, or ``"unknown"`` when there is none to read."""
    return str(get_client_ip(request) or "unknown")
