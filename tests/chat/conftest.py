"""Fixtures for the chat and moderation tests."""

from collections.abc import Callable

import pytest

from accounts.models import User
from tests.chat.helpers import create_moderator, create_user


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    return create_user


@pytest.fixture
def moderator(db: None) -> User:
    return create_moderator()
