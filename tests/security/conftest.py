"""Fixtures of the security tests: a fresh channel layer per test and short-lived
database connections in consumer threads (as in tests/games)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from channels.layers import channel_layers
from django.db import connections


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
