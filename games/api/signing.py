"""The site's export signing key (docs/export.md, "The signature").

``EXPORT_SIGNING_KEY`` (settings, from the environment) is the Ed25519 secret key:
64 hex digits (``python -c "import secrets; print(secrets.token_hex(32))"``). Unset,
the key is derived from ``SECRET_KEY`` (SHA-256 of a label and the secret key), so the
embedded site, whose ``SECRET_KEY`` is generated on first start, signs with a key of
its own with nothing to configure, and every process of a deployment signs with the
same key. The public key is what the site publishes (``/export/key.json``).
"""

from __future__ import annotations

import hashlib
from functools import cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from games.engine import ed25519

DERIVATION_LABEL = b"gin-match export signing key\n"


@cache
def _keys(configured: str, secret_key: str) -> tuple[bytes, bytes]:
    if configured:
        try:
            secret = bytes.fromhex(configured.strip())
        except ValueError:
            secret = b""
        if len(secret) != 32:
            raise ImproperlyConfigured(
                "EXPORT_SIGNING_KEY must be 64 hex digits (a 32-byte Ed25519 secret key)"
            )
    else:
        secret = hashlib.sha256(DERIVATION_LABEL + secret_key.encode()).digest()
    return secret, ed25519.public_key(secret)


def signing_key() -> tuple[bytes, bytes]:
    """The site's (secret, public) Ed25519 key pair."""
    return _keys(str(getattr(settings, "EXPORT_SIGNING_KEY", "") or ""), settings.SECRET_KEY)


def public_key_hex() -> str:
    """The site's public key, 64 hex digits."""
    return signing_key()[1].hex()
