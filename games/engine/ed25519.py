"""Ed25519 signatures (RFC 8032) in pure Python: the export's signature (docs/export.md).

The standard library has no public-key signature, and an export must be checkable by
anyone with nothing but Python: this is the reference code of RFC 8032 section 6
(edwards25519, SHA-512, cofactorless verification, ``s < q`` enforced), with a table
of the base point's doublings so that signing costs about 128 point additions. Not
constant-time: it signs exports with a key that never leaves the server, where the
timing of a signature is not observable per bit; never use it for secrets an
attacker can time.

>>> secret = bytes(range(32))
>>> signature = sign(secret, b"gin")
>>> verify(public_key(secret), b"gin", signature), verify(public_key(secret), b"gun", signature)
(True, False)
"""

from __future__ import annotations

import hashlib

Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z

P = 2**255 - 19
Q = 2**252 + 27742317777372353535851937790883648493  # the order of the base point
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
IDENTITY: Point = (0, 1, 1, 0)


def _sha512_modq(data: bytes) -> int:
    return int.from_bytes(hashlib.sha512(data).digest(), "little") % Q


def _add(a: Point, b: Point) -> Point:
    """a + b (the unified formula: also right for a == b)."""
    x1 = (a[1] - a[0]) * (b[1] - b[0]) % P
    y1 = (a[1] + a[0]) * (b[1] + b[0]) % P
    c = 2 * a[3] * b[3] * D % P
    d = 2 * a[2] * b[2] % P
    e, f, g, h = y1 - x1, d - c, d + c, y1 + x1
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(scalar: int, point: Point) -> Point:
    result = IDENTITY
    while scalar > 0:
        if scalar & 1:
            result = _add(result, point)
        point = _add(point, point)
        scalar >>= 1
    return result


def _equal(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def _recover_x(y: int, sign: int) -> int | None:
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        return None
    if (x & 1) != sign:
        x = P - x
    return x


def _compress(point: Point) -> bytes:
    z_inverse = pow(point[2], P - 2, P)
    x, y = point[0] * z_inverse % P, point[1] * z_inverse % P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def _decompress(data: bytes) -> Point | None:
    if len(data) != 32:
        return None
    y = int.from_bytes(data, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


_G_Y = 4 * pow(5, P - 2, P) % P
_G_X = _recover_x(_G_Y, 0)
assert _G_X is not None
BASE: Point = (_G_X, _G_Y, 1, _G_X * _G_Y % P)
_BASE_DOUBLINGS: list[Point] = []  # 2**i * BASE, filled on first use


def _mul_base(scalar: int) -> Point:
    if not _BASE_DOUBLINGS:
        point = BASE
        for _ in range(256):
            _BASE_DOUBLINGS.append(point)
            point = _add(point, point)
    result, bit = IDENTITY, 0
    while scalar > 0:
        if scalar & 1:
            result = _add(result, _BASE_DOUBLINGS[bit])
        scalar >>= 1
        bit += 1
    return result


def _expand(secret: bytes) -> tuple[int, bytes]:
    if len(secret) != 32:
        raise ValueError(f"an Ed25519 secret key is 32 bytes, got {len(secret)}")
    digest = hashlib.sha512(secret).digest()
    scalar = int.from_bytes(digest[:32], "little")
    scalar &= (1 << 254) - 8
    scalar |= 1 << 254
    return scalar, digest[32:]


def public_key(secret: bytes) -> bytes:
    """The 32-byte public key of a 32-byte secret key."""
    scalar, _prefix = _expand(secret)
    return _compress(_mul_base(scalar))


def sign(secret: bytes, message: bytes, public: bytes | None = None) -> bytes:
    """The 64-byte signature of ``message`` (``public``: the secret's public key, to
    spare computing it again)."""
    scalar, prefix = _expand(secret)
    public = public_key(secret) if public is None else public
    r = _sha512_modq(prefix + message)
    encoded_r = _compress(_mul_base(r))
    h = _sha512_modq(encoded_r + public + message)
    return encoded_r + ((r + h * scalar) % Q).to_bytes(32, "little")


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the signature of ``message`` by ``public``'s secret."""
    if len(public) != 32 or len(signature) != 64:
        return False
    a = _decompress(public)
    r = _decompress(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= Q:
        return False
    h = _sha512_modq(signature[:32] + public + message)
    return _equal(_mul_base(s), _add(r, _mul(h, a)))
