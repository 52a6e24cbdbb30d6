"""The refusals of learning (ginsite/errors.py's one contract)."""

from __future__ import annotations

from ginsite.errors import AppError


class LearnError(AppError):
    """A request about lessons or puzzles that cannot be done."""

    status = 400
    codes = ("unknown_lesson",)
    default_message = "There is no such lesson."
