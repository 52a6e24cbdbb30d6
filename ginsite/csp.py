"""The Content Security Policy header of every response (django-csp's middleware; the
policy itself is ``CONTENT_SECURITY_POLICY`` in ginsite/settings.py, explained in
docs/operations.md).

One addition per request: the page's own sockets. ``connect-src 'self'`` already
allows ``ws:`` and ``wss:`` to the page's host and port in browsers that follow CSP
level 3; this names them too (``ws://HOST`` and ``wss://HOST``, the host the request
was made to, port included) for browsers that read ``'self'`` as the page's scheme
only. A request whose host is not allowed (``DisallowedHost``, answered 400) gets
the policy without them.
"""

from __future__ import annotations

from typing import Any

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest
from django.http.response import HttpResponseBase


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, extended where its documentation says to
    (``get_policy_parts``)."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts
        update: dict[str, Any] = dict(parts.update or {})
        update["connect-src"] = [
            *update.get("connect-src", ()), f"ws://{host}", f"wss://{host}"
        ]
        parts.update = update
        return parts
