"""Overload answers 503, never 500: the site's handler of uncaught errors (``handler500``
in ginsite/urls.py).

Each process takes its PostgreSQL connections from a bounded pool (settings:
``DATABASE_POOL_SIZE``). Under a burst a request waits for a free connection; one that
waits longer than ``DATABASE_POOL_TIMEOUT`` fails with the pool's timeout, and one
whose process runs without a pool may find PostgreSQL itself full ("sorry, too many
clients already"). Both are overload, not a fault of the site: the visitor gets the
site's 503 page (a JSON route its ``{"error": ...}`` body, code ``overloaded``) with
``Retry-After``, and changes nothing. Every other error is the 500 page (a JSON route
the one body, code ``server_error``).

The pages are rendered without the request, as Django's 500 page is: their base
template asks nothing of the database, which is what is missing.
"""

from __future__ import annotations

import sys
from typing import Any

import psycopg
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.views.decorators.csrf import requires_csrf_token
from django.views.defaults import server_error as django_server_error
from psycopg_pool import PoolTimeout

from ginsite.errors import AppError, Overloaded, error_response, wants_json

#: Seconds a client is asked to wait before it tries again.
RETRY_AFTER_SECONDS = 5


def is_overload(error: BaseException | None) -> bool:
    """Whether ``error`` (or what caused it: Django wraps the driver's errors) is the
    database being out of connections: the pool's wait ran out, or PostgreSQL refused
    a new connection (SQLSTATE 53300, too many connections)."""
    seen = 0
    while error is not None and seen < 10:
        if isinstance(error, PoolTimeout | psycopg.errors.TooManyConnections):
            return True
        if isinstance(error, psycopg.OperationalError) and "too many clients" in str(error):
            return True  # refused at connection time: no SQLSTATE on the client's error
        error = error.__cause__ or error.__context__
        seen += 1
    return False


def overloaded_response(request: HttpRequest) -> HttpResponse:
    """The 503 of an overloaded site: the page, or the JSON error of a JSON route."""
    if wants_json(request):
        response: Any = error_response(Overloaded(), Retry_After=str(RETRY_AFTER_SECONDS))
        return response
    page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER_SECONDS})
    response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: called by Django while it handles the uncaught exception."""
    if is_overload(sys.exc_info()[1]):
        return overloaded_response(request)
    if wants_json(request):
        failed: HttpResponse = error_response(AppError())
        return failed
    response: HttpResponseServerError = django_server_error(request)
    return response
