"""Fixtures of the security tests: a fresh channel layer per test and short-lived
database connections in consumer threads (as in tests/games)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import redis
from channels.layers import channel_layers
from django.conf import settings
from django.core.cache import cache
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


def clear_cache() -> None:
    """Empty the site's cache only: with Redis it shares a database with the channel
    layer and the Celery broker, whose keys must stay."""
    if not settings.REDIS_URL:
        cache.clear()
        return
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CACHES["default"].get("KEY_PREFIX", "")
    keys = list(client.scan_iter(match=f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    """Rate-limit counters live in the shared cache: start every test from zero."""
    clear_cache()
    yield
    clear_cache()
