"""The typed wire: pydantic models of every message of docs/protocol.md.

What the sockets and the bot API carry, as models: the engine's actions (what a
client sends, ``Action``; what the view lists, ``LegalAction``), the player's and the
spectator's ``View``, the ``match`` part of a state, and every frame of the match,
chat, lobby and tournament sockets, both ways. The JSON Schemas under docs/schemas/
are generated from these models (``python manage.py wire_schemas``; a test fails when
the committed files differ), and the suite validates the frames of real matches
against them.

The engine stays pure (standard library only): it builds and checks its own dicts,
and these models, at the edge, describe them. Server frames are still built as
dicts (games/messages.py, games/chat/sockets.py, games/tournaments/): their bytes do
not change; the match socket reads its action and resign frames through these models
(games/consumers.py: the form first, the action itself after the turn and version, as
docs/protocol.md orders the checks; a chat line's text is checked by the chat service,
after who may write).

Server models forbid unknown fields, so a schema lists every field a frame may
carry (nothing else, hidden or not, can slip in unnoticed); a field marked
``MISSING`` is left out of the frame when it does not apply.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    MISSING,
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)
from pydantic.json_schema import GenerateJsonSchema
from typing_extensions import TypeAliasType

__all__ = [
    "MISSING",
    "Action",
    "LegalAction",
    "MatchTable",
    "ServerFrame",
    "StateFrame",
    "ValidationError",
    "View",
]


class Wire(BaseModel):
    """A message (or part of one) as the server sends it: exactly these fields."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


# --- the small values ----------------------------------------------------------------

Card = Annotated[
    str,
    Field(pattern=r"^[A2-9TJQK][CDHS]$", description='a card as the server writes it: "TD"'),
]
CardText = Annotated[
    str,
    Field(
        pattern=r"^[A2-9TJQKatjqk][CDHScdhs]$",
        description='a card as a client may write it (either case): "TD", "td"',
    ),
]
Seat = Annotated[StrictInt, Field(ge=0, le=1, description="a seat: 0 or 1")]
Count = Annotated[StrictInt, Field(ge=0)]
Version = Annotated[StrictInt, Field(ge=0, description="the match version")]
Pair = Annotated[list[StrictInt], Field(min_length=2, max_length=2)]
Cards = list[Card]
Melds = list[list[Card]]
Phase = Literal["first_turn", "draw", "discard", "over"]
Variant = Literal["default", "time_freedom", "straight", "oklahoma"]
Timestamp = Annotated[
    str, Field(description="ISO 8601, UTC, e.g. 2026-01-02T10:00:30.500Z")
]
CardsPair = Annotated[list[Cards], Field(min_length=2, max_length=2)]
MeldsPair = Annotated[list[Melds], Field(min_length=2, max_length=2)]


# --- actions ---------------------------------------------------------------------------


class PassAction(Wire):
    type: Literal["pass"]


class DrawAction(Wire):
    type: Literal["draw"]
    source: Literal["stock", "discard"]


class DiscardAction(Wire):
    type: Literal["discard"]
    card: CardText


class KnockAction(Wire):
    """``card`` left out (or null): the engine knocks with the best card."""

    type: Literal["knock"]
    card: CardText | MISSING | None = MISSING


class BigGinAction(Wire):
    type: Literal["big_gin"]


Action = TypeAliasType(
    "Action",
    Annotated[
        PassAction | DrawAction | DiscardAction | KnockAction | BigGinAction,
        Field(discriminator="type", description="an engine action (docs/protocol.md, Actions)"),
    ],
)


class LegalKnock(Wire):
    type: Literal["knock"]
    card: Card


class LegalDiscard(Wire):
    type: Literal["discard"]
    card: Card


LegalAction = TypeAliasType(
    "LegalAction",
    Annotated[
        PassAction | DrawAction | LegalDiscard | LegalKnock | BigGinAction,
        Field(discriminator="type", description="a legal action as the view lists it"),
    ],
)


# --- the rules and results -------------------------------------------------------------


class Rules(Wire):
    """The rule set (``RuleSet.to_dict()``, docs/rules.md)."""

    knock_limit: Annotated[StrictInt, Field(ge=0, le=10)]
    target_score: StrictInt
    gin_bonus: Count
    big_gin_bonus: Count
    undercut_bonus: Count
    game_bonus: Count
    line_bonus: Count
    shutout: StrictBool
    big_gin_allowed: StrictBool
    oklahoma: StrictBool
    oklahoma_ace_gin_only: StrictBool
    straight: StrictBool
    turn_seconds: StrictInt | None


class HandResult(Wire):
    """A hand's showdown (``HandResult.to_dict()``): both hands revealed."""

    kind: Literal["knock", "gin", "big_gin", "undercut", "draw"]
    winner: Seat | None
    points: Count
    knocker: Seat | None
    deadwood: Pair
    melds: MeldsPair
    deadwood_cards: CardsPair
    hands: CardsPair
    layoffs: Cards
    layoffs_onto: Melds
    knock_card: Card | None
    knock_limit: StrictInt | None


class Bonuses(Wire):
    game: Count
    line: Count
    shutout: Count


class MatchScore(Wire):
    """The match's score (``score_match(...).to_dict()``)."""

    over: StrictBool
    hand_points: Pair
    bonuses: Annotated[list[Bonuses], Field(min_length=2, max_length=2)]
    totals: Pair
    winner: Seat | None
    hands_won: Pair
    hands_drawn: Count
    reached_target: Seat | None
    forfeit: Seat | None
    per_hand: list[Pair]


# --- the hand's public events (the view's history, an event frame's events) ------------


class PassEvent(Wire):
    seat: Seat
    type: Literal["pass"]
    timeout: Literal[True] | MISSING = MISSING


class StockDrawEvent(Wire):
    """A draw from the stock names no card."""

    seat: Seat
    type: Literal["draw"]
    source: Literal["stock"]
    timeout: Literal[True] | MISSING = MISSING


class DiscardDrawEvent(Wire):
    seat: Seat
    type: Literal["draw"]
    source: Literal["discard"]
    card: Card
    timeout: Literal[True] | MISSING = MISSING


class DiscardEvent(Wire):
    seat: Seat
    type: Literal["discard"]
    card: Card
    timeout: Literal[True] | MISSING = MISSING


class KnockEvent(Wire):
    """A knock, gin or Big Gin (the card discarded face down is in the result)."""

    seat: Seat
    type: Literal["knock", "gin", "big_gin"]


class HandOverEvent(Wire):
    type: Literal["hand_over"]
    result: HandResult


MoveEvent = TypeAliasType(
    "MoveEvent", PassEvent | StockDrawEvent | DiscardDrawEvent | DiscardEvent
)
HistoryEvent = TypeAliasType("HistoryEvent", MoveEvent | KnockEvent | HandOverEvent)


# --- the view ------------------------------------------------------------------------


class View(Wire):
    """What one audience sees of the hand on the table (the engine's ``player_view``
    or, with ``seat`` null, ``spectator_view``): never the opponent's concealed cards,
    the stock or the seed."""

    seat: Seat | None
    hand: Cards
    melds: Melds
    deadwood_cards: Cards
    deadwood: Count | None
    opponent_card_count: Count | None
    opponent_known_cards: Cards
    taken_from_discard: Card | None
    legal_actions: list[LegalAction]
    discard_pile: Cards
    stock_count: Count
    current_player: Seat | None
    phase: Phase
    dealer: Seat
    knock_limit: StrictInt
    upcard: Card
    card_counts: Pair
    known_cards: CardsPair
    rules: Rules
    history: list[HistoryEvent]
    result: HandResult | None


# --- the match ---------------------------------------------------------------------------


class SeatInfo(Wire):
    seat: Seat
    name: StrictStr
    bot_level: StrictStr | None
    connected: StrictBool
    score: StrictInt


class Clock(Wire):
    turn_seconds: StrictInt
    deadline: Timestamp
    remaining_ms: Count


class Correspondence(Wire):
    """A correspondence match's clock: days per whole turn, the current turn's deadline."""

    days_per_move: Annotated[StrictInt, Field(ge=1)]
    deadline: Timestamp | None


class FinishedHand(Wire):
    """A finished hand with its seed revealed (docs/dealing.md)."""

    number: Annotated[StrictInt, Field(ge=1)]
    dealer: Seat
    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    seed: Annotated[str, Field(pattern=r"^[0-9a-f]+$")]
    result: HandResult | None


class Rematch(Wire):
    offered_by: Seat | None
    match_id: StrictInt | None


class MatchTable(Wire):
    """The ``match`` part of a ``state``, the same for every audience."""

    id: StrictInt
    status: Literal["waiting", "active", "finished", "cancelled"]
    kind: Literal["computer", "friend", "quick"]
    variant: Variant
    rated: StrictBool
    rules: Rules
    hand_number: Count
    seats: list[SeatInfo]
    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")] | None
    clock: Clock | None
    correspondence: Correspondence | None
    current_seat: Seat | None
    winner: Seat | None
    end_reason: Literal["target", "resign", "abandon", "suspended", "cancelled", "expired"] | None
    aborted: StrictBool
    final: MatchScore | None
    hands: list[FinishedHand]
    rematch: Rematch


# --- the match socket: server -> client ----------------------------------------------------


class StateFrame(Wire):
    """The whole table for the recipient."""

    type: Literal["state"]
    version: Version
    you: Seat | None
    match: MatchTable
    view: View | None


class Turn(Wire):
    player: Seat | None
    phase: Phase


class EventClock(Wire):
    deadline: Timestamp
    remaining_ms: Count


class MoverNews(Wire):
    """What only the mover may see of their own move."""

    melds: Melds
    deadwood: Count
    drew: Card | MISSING = MISSING
    knock: Annotated[Cards, Field(min_length=1)] | MISSING = MISSING


class EventFrame(Wire):
    """What an ordinary move changed, for one audience."""

    type: Literal["event"]
    version: Version
    events: Annotated[list[MoveEvent], Field(min_length=1)]
    turn: Turn
    clock: EventClock | MISSING | None = MISSING
    move_deadline: Timestamp | MISSING = MISSING
    you: MoverNews | MISSING = MISSING


class SeatPresence(Wire):
    seat: Seat
    connected: StrictBool


class PresenceFrame(Wire):
    type: Literal["presence"]
    version: Version
    seats: list[SeatPresence]


class DeadlineFrame(Wire):
    """A correspondence turn's deadline moved with no move (a vacation), at the match's
    current version, which it does not raise."""

    type: Literal["deadline"]
    version: Version
    correspondence: Correspondence


ErrorCode = Annotated[str, Field(pattern=r"^[a-z_]+$")]


class MatchErrorFrame(Wire):
    """A refusal on the match socket (with the version; codes in docs/protocol.md)."""

    type: Literal["error"]
    version: Version
    code: ErrorCode
    message: StrictStr


ServerFrame = Annotated[
    StateFrame | EventFrame | PresenceFrame | MatchErrorFrame,
    Field(discriminator="type"),
]


# --- the match socket: client -> server -----------------------------------------------------


class ClientFrame(BaseModel):
    """A frame a client sends; fields the server does not read are ignored."""

    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


def _an_object(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("action must be an object")
    return value


class ActionMessage(ClientFrame):
    """Play ``action`` at ``version``. The server reads the frame's form first
    (``bad_message``), then, in docs/protocol.md's order, the seat, the version and the
    turn, and only then the action itself (``malformed_action``, ``illegal_action``)."""

    type: Literal["action"]
    version: StrictInt
    action: Annotated[dict[str, Any], PlainValidator(_an_object, json_schema_input_type=Action)]


class ResignMessage(ClientFrame):
    type: Literal["resign"]
    version: StrictInt


class RematchMessage(ClientFrame):
    type: Literal["rematch"]


class SyncMessage(ClientFrame):
    type: Literal["sync"]


class ChatPost(ClientFrame):
    """A chat line (the match, lobby and tournament sockets)."""

    type: Literal["chat"]
    text: StrictStr


MatchClientFrame = Annotated[
    ActionMessage | ResignMessage | RematchMessage | SyncMessage | ChatPost,
    Field(discriminator="type"),
]


# --- chat (the match, lobby and tournament sockets) -------------------------------------


class ChatLine(Wire):
    """One chat message (games/chat/selectors.py ``message_to_dict``): render ``author``
    and ``text`` as text, never as HTML."""

    id: StrictInt
    author: StrictStr
    seat: Seat | None
    text: StrictStr
    created_at: Timestamp


class ChatHistoryFrame(Wire):
    type: Literal["chat_history"]
    messages: list[ChatLine]


class ChatFrame(Wire):
    type: Literal["chat"]
    message: ChatLine


class ChatHiddenFrame(Wire):
    type: Literal["chat_hidden"]
    id: StrictInt


class ChatNoticeFrame(Wire):
    type: Literal["chat_notice"]
    code: Literal["warning", "muted", "unmuted"]
    text: StrictStr


class ErrorFrame(Wire):
    """A refusal on the lobby and tournament sockets (no match version)."""

    type: Literal["error"]
    code: ErrorCode
    message: StrictStr


# On the match socket every chat message also carries the match version.
class MatchChatHistoryFrame(ChatHistoryFrame):
    version: Version


class MatchChatFrame(ChatFrame):
    version: Version


class MatchChatHiddenFrame(ChatHiddenFrame):
    version: Version


class MatchChatNoticeFrame(ChatNoticeFrame):
    version: Version


# --- the lobby's challenges (the lobby chat socket) -----------------------------------------


class LobbyChallenge(Wire):
    """A challenge to the user (games/api/events.py ``lobby_challenge_json``)."""

    id: StrictInt
    from_: Annotated[StrictStr, Field(alias="from", description="the challenger's name")]
    variant: Variant
    target: StrictInt
    rated: StrictBool


class ChallengeFrame(Wire):
    type: Literal["challenge"]
    challenge: LobbyChallenge


class ChallengeClosedFrame(Wire):
    type: Literal["challenge_closed"]
    id: StrictInt


# --- the bell (social/consumers.py BellSocketMixin: on the lobby's, a tournament's and ---
# --- a seated player's match socket) ------------------------------------------------------


class Notice(Wire):
    """A notification as the bell shows it: its text in the page's language."""

    id: StrictInt
    kind: Literal["challenge", "follow", "friend", "tournament", "turn", "moderation"]
    text: StrictStr
    url: StrictStr
    created_at: Timestamp


class UnreadFrame(Wire):
    type: Literal["unread"]
    unread: Count


class NotificationFrame(Wire):
    type: Literal["notification"]
    notification: Notice
    unread: Count


# On the match socket (a seated player's own) the bell's frames carry the match version.
class MatchUnreadFrame(UnreadFrame):
    version: Version


class MatchNotificationFrame(NotificationFrame):
    version: Version


# --- the tournament socket ------------------------------------------------------------------


class StandingRow(Wire):
    rank: StrictInt
    player: StrictStr
    points: float
    wins: Count
    losses: Count
    byes: Count
    tiebreaks: list[float]
    streak: Count
    fire: StrictBool
    status: Literal["active", "paused", "withdrawn", "removed"]


class LiveMatch(Wire):
    match_id: StrictInt
    round: StrictInt | None
    players: Annotated[list[StrictStr | None], Field(min_length=2, max_length=2)]
    url: StrictStr


class PairingLine(Wire):
    seat0: StrictStr
    seat1: StrictStr | None
    winner: Seat | None
    finished: StrictBool
    url: StrictStr | None


class StandingsFrame(Wire):
    type: Literal["standings"]
    version: Count
    status: Literal["scheduled", "live", "finished", "cancelled"]
    round: StrictInt | None
    ends_at: Timestamp | None
    players: Count
    rows: list[StandingRow]
    live: list[LiveMatch]
    pairings: list[PairingLine]


class MatchReadyFrame(Wire):
    type: Literal["match_ready"]
    match_id: StrictInt
    url: StrictStr


class PongFrame(Wire):
    type: Literal["pong"]


class PingMessage(ClientFrame):
    type: Literal["ping"]


# --- the frames of each socket -------------------------------------------------------------

MatchSocketFrame = Annotated[
    StateFrame | EventFrame | PresenceFrame | DeadlineFrame | MatchErrorFrame
    | MatchChatHistoryFrame | MatchChatFrame | MatchChatHiddenFrame | MatchChatNoticeFrame
    | MatchUnreadFrame | MatchNotificationFrame,
    Field(
        discriminator="type",
        description="a frame the match socket sends (unread and notification, the bell's, "
        "to a seated registered player's own socket only)",
    ),
]
ChatSocketFrame = Annotated[
    ChatHistoryFrame | ChatFrame | ChatHiddenFrame | ChatNoticeFrame | ErrorFrame
    | ChallengeFrame | ChallengeClosedFrame | UnreadFrame | NotificationFrame,
    Field(
        discriminator="type",
        description="a frame the lobby's socket sends (unread and notification, the "
        "bell's, to a registered player only)",
    ),
]
ChatClientFrame = Annotated[
    ChatPost | PingMessage,
    Field(
        discriminator="type",
        description="a frame a client sends on the lobby's socket or a tournament's",
    ),
]
TournamentSocketFrame = Annotated[
    StandingsFrame | MatchReadyFrame | PongFrame | ChatHistoryFrame | ChatFrame
    | ChatHiddenFrame | ChatNoticeFrame | ErrorFrame | UnreadFrame | NotificationFrame,
    Field(
        discriminator="type",
        description="a frame the tournament socket sends (the chat's to a signed-in "
        "viewer, the bell's to a registered player, neither with ?only=standings)",
    ),
]

# --- schema generation (games/wire_files.py writes the files) ------------------------------


class SchemaGenerator(GenerateJsonSchema):
    """No generated ``title`` on every property: the field names say it."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False
