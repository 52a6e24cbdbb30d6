"""Fixtures of the fault tests: two live ASGI processes on the suite's Redis."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest

from tests.workers import AsgiServer

S = TypeVar("S", bound=AsgiServer)


@contextmanager
def started(servers: list[S]) -> Iterator[list[S]]:
    """``servers`` started, then stopped and their logs removed."""
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
            server.remove_log()


@pytest.fixture(scope="module")
def asgi_pair(django_db_setup: None) -> Iterator[list[AsgiServer]]:
    """Two daphne processes sharing the suite's Redis channel layer, as behind nginx."""
    with started([AsgiServer(), AsgiServer()]) as servers:
        yield servers
