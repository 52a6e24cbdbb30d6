"""The refusals of tournament services: a ``code`` for programs, a sentence for people,
and on each class the HTTP status that answers it. ``TournamentError(message, code)``
is an instance of the class of this family that declares ``code`` (ginsite/errors.py).
A refused call changes nothing."""

from typing import ClassVar

from django.utils.translation import gettext_lazy as _

from games.errors import ServiceError


class TournamentError(ServiceError):
    """A tournament that cannot be created as asked (its settings): 400."""

    code_arg = 1
    status = 400
    codes: ClassVar[tuple[str, ...]] = (
        "tournament_error", "bad_name", "bad_format", "bad_rules", "bad_start", "bad_size",
        "bad_duration", "bad_rounds", "bad_round_minutes",
    )
    default_message = _("The tournament cannot do that.")


class TournamentForbidden(TournamentError):
    """Someone who may not: a private tournament without its link, a removed player."""

    status = 403
    codes = ("private", "removed")


class TournamentNotFound(TournamentError):
    status = 404
    codes = ("no_such_tournament",)


class TournamentConflict(TournamentError):
    """The right request at the wrong moment: over, too late, full, not entered, not an
    arena."""

    status = 409
    codes = ("tournament_over", "too_late", "full", "not_entered", "not_arena")
