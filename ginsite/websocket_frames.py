"""Two costs that autobahn (daphne's WebSocket layer) adds to every frame, taken out
when the ASGI application loads (ginsite/asgi.py calls ``install``).

- **Unmasking.** Every frame a browser sends is masked with four bytes (RFC 6455,
  5.3). autobahn 26 builds a native masker for each frame (two cffi allocations, a
  finalizer and an import statement) to unmask payloads of a few dozen bytes. Here
  the payload is XORed as one Python integer: one C loop, no allocation but the
  result, for any length.
- **Debug lines never printed.** autobahn writes a debug line for each frame it sends
  and each read from a socket, whose arguments (``hltype``, ``hlval``: the names
  coloured with click) are computed before the logger sees that debug lines are off.
  Here they are computed only if the line is written.

Both showed in a profile of an ASGI process under load (py-spy; the figures are in
docs/benchmarks-log.md, "daphne's per-frame costs"). The frames on the wire are the
same; nothing else of autobahn changes.

The one module of the site that patches autobahn: the module globals
``autobahn.websocket.protocol.create_xor_masker`` (the factory its protocol calls for
each frame; ``XorMasker`` keeps the interface of autobahn's maskers: ``process``,
``pointer``, ``reset``) and ``hltype``/``hlval`` in ``autobahn.websocket.protocol`` and
``autobahn.twisted.websocket``. tests/test_internals.py fails on an upgrade where
autobahn no longer calls them by those names (autobahn is pinned exactly in
pyproject.toml).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class XorMasker:
    """Unmasks (or masks) one frame's payload, possibly in several pieces, as
    autobahn's maskers do: ``process`` each piece in order; ``pointer`` is the number
    of bytes processed so far."""

    __slots__ = ("_mask", "_ptr")

    def __init__(self, mask: bytes) -> None:
        if len(mask) != 4:
            raise ValueError("a WebSocket mask is 4 bytes")
        self._mask = bytes(mask)
        self._ptr = 0

    def pointer(self) -> int:
        return self._ptr

    def reset(self) -> None:
        self._ptr = 0

    def process(self, data: bytes) -> bytes:
        length = len(data)
        if not length:
            return b""
        shift = self._ptr & 3
        key = (self._mask[shift:] + self._mask[:shift]) * (length // 4 + 1)
        self._ptr += length
        mixed = int.from_bytes(data, "little") ^ int.from_bytes(key[:length], "little")
        return mixed.to_bytes(length, "little")


def create_xor_masker(mask: bytes, length: int | None = None) -> XorMasker:
    """autobahn's factory, whatever the payload's length."""
    return XorMasker(mask)


class Deferred:
    """A log argument computed only when the line is formatted."""

    __slots__ = ("_args", "_func")

    def __init__(self, func: Callable[..., str], *args: Any) -> None:
        self._func = func
        self._args = args

    def __str__(self) -> str:
        return self._func(*self._args)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def install() -> None:
    """Put these in autobahn's WebSocket protocol modules, its own and Twisted's
    (idempotent)."""
    from autobahn import util
    from autobahn.twisted import websocket as on_twisted
    from autobahn.websocket import protocol

    protocol.create_xor_masker = create_xor_masker
    for module in (protocol, on_twisted):
        module.hltype = lambda obj: Deferred(util.hltype, obj)  # type: ignore[attr-defined]
        module.hlval = lambda value, *args, **kwargs: Deferred(  # type: ignore[attr-defined]
            lambda: util.hlval(value, *args, **kwargs)
        )
