"""The puzzle API's bodies as typed models (pydantic, as games/api/schemas.py): the
request of an answer, and what each route answers; games/api/openapi.py puts them in
the OpenAPI document. ``view`` and ``legal_actions`` are the bot API's match stream's
(games/wire.py)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import Field, PlainValidator

from games.api.schemas import Answer, Body
from games.wire import Action, LegalAction, View


def _object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("not an object")
    return value


class PuzzleAnswerBody(Body):
    """An answer to a puzzle: one of its legal actions."""

    default_message: ClassVar[str] = 'Send {"action": {...}}: one of the puzzle\'s legal_actions.'

    action: Annotated[
        dict[str, Any],
        PlainValidator(_object, json_schema_input_type=Action),
        Field(description="One of the puzzle's legal_actions; refused with malformed_action "
                          "or illegal_action (and no rating changes) when it is not."),
    ]


class PuzzleOut(Answer):
    """A puzzle: one decision of a real hand, as its player saw it."""

    id: int
    rating: int = Field(description="The puzzle's Glicko-2 rating.")
    themes: list[str] = Field(description="knock_or_wait, undercut_danger, safe_discard, "
                                          "take_upcard, chase_gin, lay_off")
    view: View = Field(description="The player to move's view, as the match stream's.")
    legal_actions: list[LegalAction]


class ActionValueOut(Answer):
    action: LegalAction
    value: float = Field(description="Expected hand points of the action for the player to move.")


class RatingChange(Answer):
    before: int
    after: int


class PuzzleVerdict(Answer):
    """The verdict on an answer (the first answer's, if the puzzle was answered before:
    it counts once)."""

    correct: bool
    best: LegalAction
    values: list[ActionValueOut] = Field(description="Every legal action, best first.")
    rating: RatingChange = Field(description="The player's puzzle rating.")
    streak: int = Field(description="Right answers in a row.")
    retired: bool = Field(description="The site has withdrawn this puzzle (its answer was found "
                                      "doubtful): answers to it no longer count.")
