"""A request that finds every database connection of its process in use waits for one,
and when the pool's wait runs out it gets the site's 503 (a page, or the JSON error of
a JSON route) with Retry-After: never a 500, and nothing changed (ginsite/overload.py).
A socket's call is answered the same way, with an ``error`` frame.

The pool is the one the site's settings give every server process (Django's psycopg
pool), here in the test process and of two connections, all of which the test takes:
the request's wait for one runs out for real.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async as sync_to_async
from django.db import connections
from django.test import Client
from psycopg_pool import PoolTimeout

from tests.factories import create_user
from tests.games.sockets import Socket
from tests.games.test_consumer import friends_match

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 0.3  # seconds a request waits for a connection (DATABASE_POOL_TIMEOUT)


@pytest.fixture
def small_pool() -> Iterator[None]:
    """The default database through a pool of two connections, for this test."""
    settings_dict = connections.settings["default"]
    connections["default"].close()
    saved_age = settings_dict["CONN_MAX_AGE"]
    settings_dict["CONN_MAX_AGE"] = 0
    settings_dict.setdefault("OPTIONS", {})["pool"] = {
        "min_size": 0,
        "max_size": 2,
        "timeout": WAIT,
    }
    try:
        yield
    finally:
        connections["default"].close()
        connections["default"].close_pool()
        del settings_dict["OPTIONS"]["pool"]
        settings_dict["CONN_MAX_AGE"] = saved_age


class AllConnectionsTaken:
    """Takes every free connection of the pool, and gives them back on exit."""

    def __enter__(self) -> AllConnectionsTaken:
        self.pool = connections["default"].pool
        self.pool.open()  # as Django does at its first connection
        self.taken = []
        while True:
            try:
                self.taken.append(self.pool.getconn(timeout=WAIT))
            except PoolTimeout:
                break
        assert self.taken, "no connection of the pool was free"
        return self

    def __exit__(self, *exc: object) -> None:
        for held in self.taken:
            self.pool.putconn(held)


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


def test_a_page_that_waits_too_long_for_a_connection_is_the_sites_503(small_pool: None) -> None:
    with AllConnectionsTaken():
        response = load_in_a_thread("/tournaments/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "The site is busy" in page
    assert "try again in 5 seconds" in page
    assert 'data-error-page="503"' in page
    # The connection back in the pool, the same page loads.
    assert load_in_a_thread("/tournaments/").status_code == 200


def test_a_json_route_that_waits_too_long_gets_the_error_shape(small_pool: None) -> None:
    with AllConnectionsTaken():
        response = load_in_a_thread("/api/user/nobody/matches", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.json() == {
        "error": {
            "code": "overloaded",
            "message": "The site is busy right now: try again in a few seconds.",
        }
    }


async def test_a_socket_whose_call_waits_too_long_is_told_the_site_is_busy(
    small_pool: None
) -> None:
    # The players made off the event loop's thread, as the socket's calls are: this
    # thread holds no connection of the pool of two.
    alice, bob = await sync_to_async(lambda: (create_user("alice"), create_user("bob")))()
    match = await friends_match(alice, bob)
    table = await Socket.open(match.pk, alice)
    # The socket's connect is over when the seated player's bell count has come, after
    # the state and the table chat's history.
    while (await table.communicator.receive_json_from(timeout=10))["type"] != "unread":
        pass
    with AllConnectionsTaken():
        await table.send({"type": "sync"})
        refused = await table.receive_type("error")
    assert refused["code"] == "overloaded"
    assert refused["message"] == "The site is busy right now: try again in a few seconds."
    # The connections back in the pool, the same request is answered.
    await table.send({"type": "sync"})
    assert (await table.receive_type("state"))["version"] == match.version
    await table.close()


async def test_a_busy_database_at_connect_leaves_the_table_without_its_bell_count_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The seated player's bell count is the socket's last read at connect: when no
    connection is free in time for it, the table still works and only the count is
    missing (it comes with the next notification), instead of the socket failing."""
    from social.consumers import MatchSocket

    def busy(user_id: int, online: bool) -> int:
        raise PoolTimeout("couldn't get a connection after 0.30 sec")

    monkeypatch.setattr(MatchSocket, "_bell_open", staticmethod(busy))
    alice, bob = await sync_to_async(lambda: (create_user("alice"), create_user("bob")))()
    match = await friends_match(alice, bob)
    table = await Socket.open(match.pk, alice)
    assert (await table.receive_type("state"))["version"] == match.version
    await table.send({"type": "sync"})
    assert (await table.receive_type("state"))["version"] == match.version
    await table.close()
