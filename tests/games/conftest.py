"""Fixtures of the games tests: players by name, and sockets freed of the rate limit."""

from typing import Any

import pytest


@pytest.fixture
def unthrottled_sockets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests that play whole matches at machine speed lift the per-socket rate limit."""
    from games.consumers import MatchConsumer

    monkeypatch.setattr(MatchConsumer, "rate_per_second", 1000.0)


def _player_named(name: str) -> Any:
    @pytest.fixture(name=name)
    def player() -> Any:
        from tests.factories import create_user

        return create_user(name)

    return player


#: Registered players named after their fixture (tests/factories.py's ``create_user``).
alice, ann, bob, carol = (_player_named(n) for n in ("alice", "ann", "bob", "carol"))
