"""A request that finds every database connection of its process in use waits for one,
and when the pool's wait runs out it gets the site's 503 (a page, or the JSON error of
a JSON route) with Retry-After: never a 500, and nothing changed (ginsite/overload.py).

The pool is the one the site's settings give every server process, here in the test
process and of one connection, which a thread of the test holds: the request's wait
for it runs out for real.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connections
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 0.3  # seconds a request waits for a connection (DATABASE_POOL_TIMEOUT)


@pytest.fixture
def pool_of_one() -> Iterator[None]:
    """The default database through a pool of one connection, for this test."""
    settings_dict = connections.settings["default"]
    connections["default"].close()
    saved_age = settings_dict["CONN_MAX_AGE"]
    settings_dict["CONN_MAX_AGE"] = 0
    settings_dict.setdefault("OPTIONS", {})["pool"] = {
        "min_size": 0,
        "max_size": 1,
        "timeout": WAIT,
    }
    try:
        yield
    finally:
        connections["default"].close()
        connections["default"].close_pool()
        del settings_dict["OPTIONS"]["pool"]
        settings_dict["CONN_MAX_AGE"] = saved_age


class HeldConnection:
    """A thread that takes the pool's one connection and keeps it until released."""

    def __init__(self) -> None:
        self.taken = threading.Event()
        self.release = threading.Event()
        self.thread = threading.Thread(target=self.hold)

    def hold(self) -> None:
        try:
            connections["default"].ensure_connection()
            self.taken.set()
            self.release.wait(60)
        finally:
            connections["default"].close()

    def __enter__(self) -> HeldConnection:
        self.thread.start()
        assert self.taken.wait(30), "the holder thread took no connection"
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.thread.join()


def load_in_a_thread(path: str, **headers: Any) -> Any:
    """``path`` loaded from a thread of its own (so a connection of its own)."""
    result: dict[str, Any] = {}

    def visit() -> None:
        try:
            result["response"] = Client(raise_request_exception=False).get(path, **headers)
        finally:
            connections["default"].close()

    thread = threading.Thread(target=visit)
    thread.start()
    thread.join()
    return result["response"]


def test_a_page_that_waits_too_long_for_a_connection_is_the_sites_503(pool_of_one: None) -> None:
    with HeldConnection():
        response = load_in_a_thread("/tournaments/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "The site is busy" in page
    assert "try again in 5 seconds" in page
    assert 'data-error-page="503"' in page
    # The connection back in the pool, the same page loads.
    assert load_in_a_thread("/tournaments/").status_code == 200


def test_a_json_route_that_waits_too_long_gets_the_error_shape(pool_of_one: None) -> None:
    with HeldConnection():
        response = load_in_a_thread("/api/user/nobody/matches", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {
        "error": {
            "code": "overloaded",
            "message": "The site is busy right now: try again in a few seconds.",
        }
    }
