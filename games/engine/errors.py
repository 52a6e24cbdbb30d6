"""Errors raised by the engine for bad actions.

``MalformedAction``: the input is not a well-formed action (unknown type, bad card
text, missing or unexpected field). ``IllegalAction``: a well-formed action that the
rules forbid right now; its message names the rule. Both subclass ``ActionError``,
itself a ``ValueError``, so callers can catch either precisely or both at once.
"""


class ActionError(ValueError):
    """An action was refused; the state it was applied to is unchanged."""


class MalformedAction(ActionError):
    """The action is not a well-formed action object."""


class IllegalAction(ActionError):
    """The action is well formed but the rules forbid it in this state."""
