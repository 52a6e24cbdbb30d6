"""The bot API's bodies as typed models (pydantic): what each request sends, each
answer says, and each line of its NDJSON streams carries (docs/bot-api.md).

Requests are parsed by their model (``parse``): a body that does not fit is refused
with the model's code (``refusal_code``) and the sentence of its first wrong field
(``messages``), before anything changes. Answers are built from their model
(``answer_json``). games/api/openapi.py turns the same models into the OpenAPI
document, so the document says what the code does. The match stream's lines, the
player's ``view`` and its ``legal_actions`` are the WebSocket's (games/wire.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, ClassVar, Literal, TypeVar

from pydantic import (
    MISSING,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    RootModel,
    ValidationError,
    WithJsonSchema,
    field_validator,
)

from games.wire import (
    Action,
    EventFrame,
    MatchChatFrame,
    MatchChatHiddenFrame,
    PresenceFrame,
    StateFrame,
)
from ginsite.errors import AppError

#: The rule presets (games.engine ``RuleSet.PRESETS``), targets (``TARGET_SCORES``) and
#: computer levels (games.services.matches ``BOT_LEVELS``); tests/api/test_openapi.py
#: checks they are the engine's.
Variant = Literal["default", "time_freedom", "straight", "oklahoma"]
Target = Literal[50, 100, 150, 200, 250]
Level = Literal["easy", "medium", "hard", "expert"]
DaysPerMove = Literal[1, 3, 7]
ChallengeStatus = Literal["created", "accepted", "declined", "canceled"]

#: A username as the accounts app allows it (Django's ``UnicodeUsernameValidator``).
USERNAME_PATTERN = r"^[\w.@+-]+$"
USERNAME_MAX_LENGTH = 150

MAX_EXPORTS = 300


def _one_of(values: tuple[Any, ...]) -> str:
    return ", ".join(map(str, values))


VARIANTS: tuple[str, ...] = Variant.__args__  # type: ignore[attr-defined]
TARGETS: tuple[int, ...] = Target.__args__  # type: ignore[attr-defined]
LEVELS: tuple[str, ...] = Level.__args__  # type: ignore[attr-defined]


class BodyError(AppError):
    """A request whose body (or query) does not fit its model: nothing was done.
    ``BodyError(code, message)``; 400."""

    code_arg = 0
    status = 400
    codes = ("bad_message", "bad_request", "invalid_settings")
    default_message = "The body does not fit this request."


# --- requests ---------------------------------------------------------------------------


class Body(BaseModel):
    """A request body: strict JSON types (``"100"`` is not 100, ``true`` is not 1);
    fields the model does not name are ignored."""

    model_config = ConfigDict(strict=True, extra="ignore")

    #: The code of a body that does not fit, and the sentence for each field.
    refusal_code: ClassVar[str] = "bad_message"
    messages: ClassVar[dict[str, str]] = {}
    default_message: ClassVar[str] = "The body does not fit this request."


M = TypeVar("M", bound=Body)


def parse(model: type[M], data: dict[str, Any]) -> M:
    """``data`` (a request's JSON object) as ``model``, or ``BodyError``: the model's
    code, and the sentence of the first field that does not fit."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]["loc"]
        field = str(first[0]) if first else ""
        raise BodyError(
            model.refusal_code, model.messages.get(field, model.default_message)
        ) from None


_SETTINGS_MESSAGES = {
    "variant": f"variant must be one of {_one_of(VARIANTS)}.",
    "target": f"target must be one of {_one_of(TARGETS)}.",
}


class ChallengeSettings(Body):
    """The match offered; every field is optional."""

    refusal_code: ClassVar[str] = "invalid_settings"
    messages: ClassVar[dict[str, str]] = {
        **_SETTINGS_MESSAGES,
        "rated": "rated must be true or false.",
        "days": "days must be 1, 3 or 7, or null for a live match.",
    }

    variant: Variant = Field("default", description="The rules (docs/rules.md).")
    target: Target = Field(100, description="The score that wins the match.")
    rated: bool = Field(
        False, description="Rated: between two people or two BOT accounts only."
    )
    days: DaysPerMove | None = Field(
        None, description="A correspondence match: days per move (a whole turn); "
        "null for a live match. Never rated, between two people only.",
    )


class ComputerChallenge(Body):
    """A match against the site's computer: its level, rules and target."""

    refusal_code: ClassVar[str] = "invalid_settings"
    messages: ClassVar[dict[str, str]] = {
        "level": f"level must be one of {_one_of(LEVELS)}.",
        **_SETTINGS_MESSAGES,
    }

    level: Level = Field(description="How strong the computer plays.")
    variant: Variant = Field("default", description="The rules (docs/rules.md).")
    target: Target = Field(100, description="The score that wins the match.")


def _json_object(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("not an object")
    return value


class ActionBody(Body):
    """A move of the bot's seat, and the version of the state it was chosen from."""

    messages: ClassVar[dict[str, str]] = {}
    default_message: ClassVar[str] = 'The body needs "version" (integer) and "action" (object).'

    version: int = Field(description="The version of the state the bot acted on.")
    action: Annotated[
        dict[str, Any],
        PlainValidator(_json_object, json_schema_input_type=Action),
        Field(
            description="One of the view's legal_actions (the engine's action JSON); "
            "refused with malformed_action or illegal_action when it is not."
        ),
    ]


class ChatBody(Body):
    """A line of chat at the table."""

    default_message: ClassVar[str] = "A chat message needs a text."

    text: str = Field(
        description="At most 300 characters once spaces are tidied; not blank."
    )


class EmptyBody(Body):
    """A request that needs no body: an empty body, or any JSON object (its fields are
    ignored)."""


class MatchListQuery(BaseModel):
    """The query of ``GET /api/user/{username}/matches``."""

    model_config = ConfigDict(extra="ignore")

    max: int = Field(
        100, ge=1, le=MAX_EXPORTS, description=f"How many matches, 1 to {MAX_EXPORTS}."
    )
    since: Annotated[datetime | None, WithJsonSchema({"type": "string"})] = Field(
        None,
        description="Only matches created at or after it: milliseconds since 1970, or "
        "an ISO 8601 date and time (UTC unless it says otherwise).",
    )

    @field_validator("max", mode="before")
    @classmethod
    def _whole_number(cls, value: Any) -> int:
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ValueError("not a whole number") from None

    @field_validator("since", mode="before")
    @classmethod
    def _moment(cls, value: Any) -> datetime | None:
        if value in (None, ""):
            return None
        text = str(value)
        try:
            if text.isdigit():
                return datetime.fromtimestamp(int(text) / 1000, tz=UTC)
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except (ValueError, OverflowError, OSError):
            raise ValueError("not a moment") from None
        return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def parse_match_list_query(query: dict[str, str]) -> MatchListQuery:
    """The query of the match list, or ``BodyError`` ``bad_request``."""
    try:
        return MatchListQuery.model_validate(query)
    except ValidationError as error:
        if all(e["type"] in ("greater_than_equal", "less_than_equal") for e in error.errors()):
            raise BodyError("bad_request", f"max must be between 1 and {MAX_EXPORTS}.") from None
        raise BodyError(
            "bad_request", "max is a whole number; since is milliseconds or ISO 8601."
        ) from None


# --- answers ----------------------------------------------------------------------------


class Answer(BaseModel):
    """An answer's JSON object: exactly these fields."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


def answer_json(answer: Answer) -> dict[str, Any]:
    """The JSON object of ``answer``, field names as on the wire."""
    return answer.model_dump(mode="json", by_alias=True)


class Account(Answer):
    """The token's account."""

    id: int
    username: str
    bot: bool = Field(description="A BOT account (POST /api/bot/account/upgrade).")


class Upgraded(Answer):
    """The account, now a BOT account."""

    ok: Literal[True]
    username: str
    bot: Literal[True]


class ChallengeOffer(Answer):
    """A challenge as the challenged account's event stream announces it."""

    id: int
    from_: str = Field(alias="from", description="The challenger's username.")
    variant: Variant
    target: Target
    rated: bool
    days: DaysPerMove | None = Field(
        None, description="A correspondence match's days per move; null for a live match."
    )


class Challenge(ChallengeOffer):
    """A challenge and where it stands."""

    to: str = Field(description="The challenged account's username.")
    status: ChallengeStatus


class ChallengeAnswer(Answer):
    """The challenge after a request to create, decline or cancel it."""

    challenge: Challenge


class MatchRef(Answer):
    id: int


class MatchAnswer(Answer):
    """A match that started: open its stream, ``GET /api/bot/match/{id}/stream``."""

    match: MatchRef


class Moved(Answer):
    """The match's version after the action."""

    version: int


class Resigned(Answer):
    ok: Literal[True]
    version: int


class ChatPosted(Answer):
    ok: Literal[True]
    id: int = Field(description="The message's id.")


class ExportKey(Answer):
    """The key that signs every export (docs/export.md)."""

    algorithm: Literal["Ed25519"]
    key: str = Field(pattern=r"^[0-9a-f]{64}$", description="The public key, hex.")
    verifier: str = Field(description="Where the single-file verifier is served.")


class ErrorDetail(Answer):
    code: str = Field(description="For programs: the table of docs/bot-api.md.")
    message: str = Field(min_length=1, description="For people: one sentence.")


class ErrorBody(Answer):
    """Every refusal: ``{"error": {"code", "message"}}``."""

    error: ErrorDetail


class DecisionAction(Answer):
    """An action as the analysis names it: a draw from the discard pile names its
    ``card``, a knock the card discarded face down."""

    type: Literal["pass", "draw", "discard", "knock", "big_gin"]
    source: Literal["stock", "discard"] | None = None
    card: str | None = Field(None, pattern=r"^[A2-9TJQK][CDHS]$")


class Decision(Answer):
    """One decision of a hand, as the analysis judged it (docs/analysis.md)."""

    ply: int = Field(ge=0, description="The decision's index in its hand.")
    seat: Literal[0, 1]
    played: DecisionAction
    best: DecisionAction
    loss: float = Field(ge=0, description="Points lost against the best action.")
    label: Literal["inaccuracy", "mistake", "blunder"] | None


class HandAnalysis(Answer):
    number: int = Field(ge=1)
    decisions: list[Decision]
    accuracy: list[float | None] = Field(
        min_length=2, max_length=2, description="Seat 0's and seat 1's, 0 to 100."
    )


class MatchAnalysis(Answer):
    """The analysed finished hands of the match, decision by decision (docs/analysis.md,
    docs/protocol.md)."""

    match: int
    hands: list[HandAnalysis]


# --- the event stream's lines -----------------------------------------------------------


class ChallengeIdRef(Answer):
    id: int


class ChallengeEvent(Answer):
    """Someone challenged the account."""

    type: Literal["challenge"]
    challenge: ChallengeOffer


class ChallengeDeclinedEvent(Answer):
    """A challenge the account sent was declined."""

    type: Literal["challengeDeclined"]
    challenge: ChallengeIdRef


class ChallengeCanceledEvent(Answer):
    """A challenge to the account was withdrawn by its sender."""

    type: Literal["challengeCanceled"]
    challenge: ChallengeIdRef


class MatchStartEvent(Answer):
    """A match of the account started."""

    type: Literal["matchStart"]
    match: MatchRef


class MatchFinishEvent(Answer):
    """A match of the account is over."""

    type: Literal["matchFinish"]
    match: MatchRef


class AccountEvent(
    RootModel[
        Annotated[
            ChallengeEvent
            | ChallengeDeclinedEvent
            | ChallengeCanceledEvent
            | MatchStartEvent
            | MatchFinishEvent,
            Field(discriminator="type"),
        ]
    ]
):
    """One line of ``GET /api/stream/event`` (empty lines are keep-alives)."""


# --- the match stream's lines (the WebSocket's frames, games/wire.py) ---------------------


class StreamEnd(Answer):
    """The last line of a stream that ends before the match does: its token was revoked
    or its account closed (no ``version`` when the token was revoked before the
    stream began)."""

    type: Literal["error"]
    version: int | MISSING = MISSING
    code: Literal["token_revoked", "account_closed"]
    message: str


class MatchState(RootModel[StateFrame]):
    """The full state of the bot's seat: ``state`` of docs/protocol.md."""


class MatchLine(
    RootModel[
        Annotated[
            StateFrame | EventFrame | PresenceFrame | MatchChatFrame | MatchChatHiddenFrame
            | StreamEnd,
            Field(discriminator="type"),
        ]
    ]
):
    """One line of the match stream: the WebSocket's frames of the bot's seat
    (docs/protocol.md), then, if the stream ends early, why (empty lines are
    keep-alives)."""
