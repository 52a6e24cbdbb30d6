"""The shuffle and the deal: deterministic from a seed, reproducible in any language.

docs/dealing.md is the specification (with a worked example). In short:

* byte stream: ``HMAC-SHA256(key=seed, msg=b"gin-deal" + i.to_bytes(8, "big"))``
  for i = 0, 1, 2, ... concatenated; read unsigned 32-bit big-endian integers;
* Fisher-Yates on ``new_deck()``: for i from 51 down to 1, n = i + 1,
  limit = 2**32 - (2**32 % n), draw integers until one is below the limit,
  j = u % n, swap deck[i] and deck[j];
* deal: deck[0], deck[2], ..., deck[18] to the non-dealer, deck[1], ..., deck[19]
  to the dealer, deck[20] is the upcard, deck[21:] the stock (deck[21] drawn first).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

from .cards import Card, new_deck

DEAL_LABEL = b"gin-deal"
SEED_BYTES = 32


def new_seed() -> bytes:
    """A fresh, unpredictable 32-byte seed (production deals)."""
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256 in hex, shown before play."""
    return hashlib.sha256(_check_seed(seed)).hexdigest()


def _check_seed(seed: bytes) -> bytes:
    if not isinstance(seed, bytes | bytearray) or not seed:
        raise ValueError("the seed must be a non-empty bytes value")
    return bytes(seed)


def _words(seed: bytes) -> Iterator[int]:
    """Unsigned 32-bit big-endian integers from the HMAC-SHA256 counter stream."""
    counter = 0
    while True:
        block = hmac.new(seed, DEAL_LABEL + counter.to_bytes(8, "big"), hashlib.sha256).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset:offset + 4], "big")
        counter += 1


def shuffled_deck(seed: bytes) -> list[Card]:
    """The deck after the seeded Fisher-Yates shuffle."""
    words = _words(_check_seed(seed))
    deck = new_deck()
    for i in range(51, 0, -1):
        n = i + 1
        limit = 2**32 - (2**32 % n)
        u = next(words)
        while u >= limit:
            u = next(words)
        j = u % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Deal:
    """The cards of one deal: ``hands[seat]`` (10 each), the upcard and the stock."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    upcard: Card
    stock: tuple[Card, ...]  # stock[0] is drawn first


def deal_cards(seed: bytes, dealer: int) -> Deal:
    """Deal from a seed: alternate cards starting with the non-dealer."""
    if dealer not in (0, 1):
        raise ValueError(f"dealer must be seat 0 or 1, got {dealer!r}")
    deck = shuffled_deck(seed)
    non_dealer = 1 - dealer
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[non_dealer] = tuple(deck[0:20:2])
    hands[dealer] = tuple(deck[1:20:2])
    return Deal((hands[0], hands[1]), deck[20], tuple(deck[21:]))
