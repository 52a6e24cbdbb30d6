"""What a test client knows of the table: the last ``state``, with the later event
frames applied by games/messages.py ``apply_frame`` (as the browser's events.js does)."""

from __future__ import annotations

from typing import Any

from games.messages import apply_frame


class TableState:
    """What a client knows of the table: the last ``state``, with later event frames
    applied. ``take(frame)`` returns the state after ``frame`` (None if the frame is
    not part of the table's play: presence, errors, chat, a stale copy or a gap)."""

    def __init__(self) -> None:
        self.msg: dict[str, Any] | None = None
        self.gap = False

    def take(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        if frame.get("type") == "state":
            self.msg, self.gap = frame, False
            return frame
        if frame.get("type") != "event" or self.msg is None:
            return None
        if frame["version"] <= self.msg["version"]:
            return None
        applied = apply_frame(self.msg, frame)
        if applied is None:
            self.gap = True
            return None
        self.msg = applied
        return applied
