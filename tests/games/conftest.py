"""Fixtures of the games tests."""

import pytest


@pytest.fixture
def unthrottled_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests that play whole matches at machine speed lift the per-socket rate limit."""
    from games.consumers import MatchConsumer

    monkeypatch.setattr(MatchConsumer, "rate_per_second", 1000.0)

