"""Fixtures of the fault tests: two live ASGI processes on the suite's Redis."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.workers import AsgiServer, started


@pytest.fixture(scope="module")
def asgi_pair(django_db_setup: None) -> Iterator[list[AsgiServer]]:
    """Two daphne processes sharing the suite's Redis channel layer, as behind nginx."""
    with started([AsgiServer(), AsgiServer()]) as servers:
        yield servers
