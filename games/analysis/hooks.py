"""What live play tells the analysis: a hand finished (called on commit).

Kept free of imports at module level so that ``games.services.play`` can import it
without an import cycle (the analysis services import the games services' errors).
"""

from __future__ import annotations


def hand_finished(hand_id: int) -> None:
    """Have the finished hand analysed off the request path: a task on the
    "analysis" queue, or the embedded mode's background thread."""
    from .services import hand_finished as enqueue

    enqueue(hand_id)
