"""The refusals of learning (ginsite/errors.py's one contract)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ginsite.errors import AppError


class LearnError(AppError):
    """A request about lessons or puzzles that cannot be done."""

    status = 400
    codes = ("unknown_lesson",)
    default_message = _("There is no such lesson.")


class NoSuchPuzzleError(AppError):
    """No puzzle by that id, or none left to give."""

    status = 404
    codes = ("no_such_puzzle", "no_puzzle_left")
    default_message = _("There is no such puzzle.")
