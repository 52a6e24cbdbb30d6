"""The refusals of tournament services: a ``code`` for programs, a sentence for people.
A refused call changes nothing."""

from games.errors import ServiceError


class TournamentError(ServiceError):
    code = "tournament_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code
