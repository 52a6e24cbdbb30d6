"""Fixtures of the fault tests: two live ASGI processes on the suite's Redis, and
the per-test hygiene of the consumer tests (fresh channel layer, short-lived
database connections in threads)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from channels.layers import channel_layers
from django.db import connections

from tests.workers import AsgiServer


@pytest.fixture(autouse=True, scope="session")
def _no_persistent_connections_in_threads() -> Iterator[None]:
    settings_dict = connections.settings["default"]
    saved = settings_dict.get("CONN_MAX_AGE", 0)
    settings_dict["CONN_MAX_AGE"] = 0
    yield
    settings_dict["CONN_MAX_AGE"] = saved


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(scope="module")
def asgi_pair(django_db_setup: None) -> Iterator[list[AsgiServer]]:
    """Two daphne processes sharing the suite's Redis channel layer, as behind nginx."""
    servers = [AsgiServer(), AsgiServer()]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
            server.remove_log()
