"""Errors raised by the engine for bad actions.

``MalformedAction``: the input is not a well-formed action (unknown type, bad card
text, missing or unexpected field). ``IllegalAction``: a well-formed action that the
rules forbid right now; its message names the rule. Both subclass ``ActionError``,
itself a ``ValueError``, so callers can catch either precisely or both at once.

The message is English, for programs (the bot API, the verifier, the logs) and stays
as it is. Each refusal also names its ``reason``, one of ``REASONS`` (stable: a
program may compare it, and the site shows a person its own sentence for it in their
language, games/refusals.py), and ``details``, the values its message names (a card's
text, points, a limit). The browser's port (games/static/games/offline/engine.js)
gives its refusals the same reasons and details.
"""

from __future__ import annotations

#: Every reason an engine refusal may name, and the details each carries.
REASONS: dict[str, tuple[str, ...]] = {
    # malformed
    "not_an_object": (),
    "unknown_type": ("type",),
    "unexpected_fields": ("type", "fields"),
    "missing_fields": ("type", "fields"),
    "bad_source": ("source",),
    "card_not_text": ("card",),
    "bad_card": ("card",),
    # illegal
    "no_hand_in_play": (),
    "match_over": (),
    "hand_over": (),
    "not_your_turn": (),
    "first_turn_take_or_pass": (),
    "draw_first": (),
    "pass_first_turn_only": (),
    "already_drawn": (),
    "no_stock_on_first_turn": (),
    "discard_pile_empty": (),
    "not_held": ("card",),
    "discard_just_taken": (),
    "straight_gin_only": ("points",),
    "gin_only": ("points",),
    "knock_limit": ("limit", "points"),
    "big_gin_not_allowed": (),
    "big_gin_needs_melds": (),
}


class ActionError(ValueError):
    """An action was refused; the state it was applied to is unchanged.

    ``str(error)`` is the English message; ``reason`` names the refusal (a key of
    ``REASONS``) and ``details`` the values of its message, as text or numbers.
    """

    def __init__(self, message: str, reason: str = "", **details: str | int) -> None:
        super().__init__(message)
        if reason and (reason not in REASONS or set(details) != set(REASONS[reason])):
            raise TypeError(f"an engine refusal {reason!r} with details {sorted(details)}")
        self.reason = reason
        self.details = details


class MalformedAction(ActionError):
    """The action is not a well-formed action object."""


class IllegalAction(ActionError):
    """The action is well formed but the rules forbid it in this state."""
