"""Fixtures of the games tests."""

from collections.abc import Iterator

import pytest
from channels.layers import channel_layers
from django.db import connections


@pytest.fixture(autouse=True, scope="session")
def _no_persistent_connections_in_threads() -> Iterator[None]:
    """Consumers reach the database from asgiref's worker threads; with the
    settings' CONN_MAX_AGE those connections outlive the tests and keep the test
    database from being dropped. Connections opened from here on close after use."""
    settings_dict = connections.settings["default"]
    saved = settings_dict.get("CONN_MAX_AGE", 0)
    settings_dict["CONN_MAX_AGE"] = 0
    yield
    settings_dict["CONN_MAX_AGE"] = saved


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Each async test runs on its own event loop; a Redis channel layer object
    keeps per-loop receive state, so every test gets a new one."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def unthrottled_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests that play whole matches at machine speed lift the per-socket rate limit."""
    from games.consumers import MatchConsumer

    monkeypatch.setattr(MatchConsumer, "rate_per_second", 1000.0)
