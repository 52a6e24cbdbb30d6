"""Reads of the open platform (the bot API's challenges) for its views and streams."""

from __future__ import annotations

from .models import Challenge


def challenge_get(*, challenge_id: int) -> Challenge | None:
    """The challenge of that id, with both players, or None."""
    return Challenge.objects.select_related("dest", "challenger").filter(pk=challenge_id).first()
