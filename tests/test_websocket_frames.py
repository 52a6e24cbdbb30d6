"""ginsite/websocket_frames.py: its masker unmasks every payload as autobahn's own does,
however the payload arrives in pieces; autobahn's debug lines still read the same when
they are written; and daphne runs with both (a live server reads fragmented, masked,
multi-byte frames: tests/reliability/test_websocket_frames.py)."""

from __future__ import annotations

import logging
import random

import pytest
from autobahn import util
from autobahn.twisted import websocket as on_twisted
from autobahn.websocket import protocol
from autobahn.websocket.xormasker import create_xor_masker as autobahn_masker

from ginsite import websocket_frames
from ginsite.websocket_frames import XorMasker


def test_the_rfc_6455_example_unmasks_to_hello() -> None:
    # RFC 6455, 5.7: "Hello" masked with 37 fa 21 3d.
    masked = bytes([0x7F, 0x9F, 0x4D, 0x51, 0x58])
    assert XorMasker(bytes([0x37, 0xFA, 0x21, 0x3D])).process(masked) == b"Hello"


@pytest.mark.parametrize("seed", range(20))
def test_any_payload_in_any_pieces_unmasks_as_autobahns_own_masker(seed: int) -> None:
    chance = random.Random(seed)
    mask = chance.randbytes(4)
    payload = chance.randbytes(chance.choice([0, 1, 3, 4, 5, 80, 127, 128, 1000, 70_000]))
    ours, theirs = XorMasker(mask), autobahn_masker(mask, len(payload))
    at = 0
    while at < len(payload):
        piece = payload[at:at + chance.randint(1, 9 if chance.random() < 0.5 else 5000)]
        assert ours.process(piece) == theirs.process(piece)
        at += len(piece)
        assert ours.pointer() == theirs.pointer() == at
    assert ours.process(b"") == b""
    ours.reset()
    assert ours.pointer() == 0
    unmasked = ours.process(autobahn_masker(mask, len(payload)).process(payload))
    assert unmasked == payload


def test_a_mask_is_four_bytes() -> None:
    with pytest.raises(ValueError, match="4 bytes"):
        XorMasker(b"abc")


def send_data() -> None:
    """Stands for the method autobahn names in its line."""


def test_autobahns_debug_lines_read_the_same_when_written(caplog) -> None:
    websocket_frames.install()
    assert protocol.create_xor_masker is websocket_frames.create_xor_masker
    assert isinstance(on_twisted.hltype(send_data), websocket_frames.Deferred)

    names = protocol.hltype(send_data), protocol.hlval(1234), protocol.hlval("x", color="red")
    expected = util.hltype(send_data), util.hlval(1234), util.hlval("x", color="red")
    assert [str(name) for name in names] == list(expected)
    assert [f"{name}" for name in names] == list(expected)
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("frames").debug("%s sent %s bytes", names[0], names[1])
    assert caplog.records[-1].getMessage() == f"{expected[0]} sent {expected[1]} bytes"
