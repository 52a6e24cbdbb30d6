"""Guest players: real, flagged users who can play the computer without signing up."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts.models import User


def guest_user_create() -> User:
    """A new guest (``is_guest``, unusable password, username like ``guest-7f3a2c``)."""
    model = get_user_model()
    for _attempt in range(10):
        username = f"guest-{secrets.token_hex(3)}"
        try:
            with transaction.atomic():
                user = model(username=username, is_guest=True)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free guest username")
