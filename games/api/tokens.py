"""Personal API tokens: creating, revoking, and authenticating a request's token.

A token is ``gin_`` and 43 URL-safe characters (256 random bits); the database keeps
its SHA-256 only. A token works while it is not revoked and its account is active: a
ban (``is_active`` off) stops every token of the account at the next request. Revoking
a token also ends every stream open with it (games/api/events.py ``token_revoked``).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import TYPE_CHECKING, ClassVar

from django.db import transaction
from django.utils import timezone

from ginsite.errors import AppError

from . import events
from .models import ApiToken

if TYPE_CHECKING:
    from accounts.models import User

PREFIX = "gin_"
MAX_TOKENS = 20  # live tokens per account
# last_used_at is written at most this often per token (not one write per request).
LAST_USED_PRECISION = timedelta(seconds=60)


class TokenError(AppError):
    """A refused token request: ``TokenError(code, message)``, an instance of the class
    of this family that declares ``code`` (ginsite/errors.py), with its status."""

    code_arg = 0
    status = 400
    codes: ClassVar[tuple[str, ...]] = ("too_many_tokens",)
    default_message = "That token request cannot be done."


class TokenForbidden(TokenError):
    status = 403
    codes = ("not_allowed",)


class TokenNotFound(TokenError):
    status = 404
    codes = ("not_found",)


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def api_token_create(*, user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new token for ``user``; returns the row and the token (shown once)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        raise TokenError("not_allowed", "Sign in to create API tokens.")
    if user.is_guest:
        raise TokenError("not_allowed", "Guests cannot create API tokens: sign up first.")
    name = " ".join(str(name or "").split())[:100] or "API token"
    with transaction.atomic():
        live = ApiToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True)
        if live.count() >= MAX_TOKENS:
            raise TokenError(
                "too_many_tokens", f"At most {MAX_TOKENS} tokens: revoke one you no longer use."
            )
        raw = PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user, name=name, token_hash=token_hash(raw), prefix=raw[:8]
        )
    return token, raw


def api_token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens for good (revoking twice changes nothing)."""
    token = ApiToken.objects.filter(pk=token_id, user=user).first()
    if token is None:
        raise TokenError("not_found", "There is no such token.")
    if token.revoked_at is None:
        with transaction.atomic():
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
            events.token_revoked(token.pk)  # its open streams end after commit
    return token


def api_token_authenticate(raw: str) -> ApiToken | None:
    """The live token ``raw`` with its (active) user, or None; notes the last use."""
    if not raw.startswith(PREFIX) or len(raw) > 100:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(token_hash=token_hash(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def tokens_for_user(*, user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))
