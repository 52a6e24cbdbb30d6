"""Everything the site tells the sockets goes through the one publisher: match events
(games/broadcast.py), chat (games/chat/broadcast.py), tournaments and the bot API's
streams all hand their ``(group, event)`` pairs to ``ginsite.runtime.publisher()``,
after commit; no other module sends to the channel layer itself (a consumer only joins
and leaves groups)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "accounts", "leaderboards", "ginsite")
# A send on a channel layer, or a synchronous bridge to one.
LAYER_SEND = re.compile(r"layer\w*\s*\.\s*(group_send|send)\s*\(|async_to_sync\s*\(")


def layer_senders() -> set[str]:
    return {
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if LAYER_SEND.search(path.read_text())
    }


def test_only_the_runtime_publisher_sends_to_the_channel_layer() -> None:
    assert layer_senders() == {"ginsite/runtime.py"}

