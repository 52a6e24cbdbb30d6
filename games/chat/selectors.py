"""Reads for chat: who may read or write a room, recent history (honouring blocks and
hidden messages), the wire form of a message, and blocks between two users.

A room is a match's table (``match_id``), a tournament (``tournament_id``; who reads
and writes there is the tournaments app's rule, registered in games/chat/rooms.py)
or the lobby (both None)."""

from django.conf import settings
from django.db.models import Q

from accounts.models import User
from games.models import Seat

from . import rooms
from .models import ChatMessage, UserBlock


def blocked_between(user_a: User | None, user_b: User | None) -> bool:
    """True when either user has blocked the other (they are never paired or invited)."""
    if user_a is None or user_b is None or user_a.pk is None or user_b.pk is None:
        return False
    return UserBlock.objects.filter(
        Q(blocker=user_a, blocked=user_b) | Q(blocker=user_b, blocked=user_a)
    ).exists()


def block_partner_ids(*, user: User) -> set[int]:
    """Ids of the users ``user`` blocked or was blocked by (never paired with them)."""
    pairs = UserBlock.objects.filter(Q(blocker=user) | Q(blocked=user)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in pairs for other in pair if other != user.pk}


def blocked_user_ids(*, user: User) -> set[int]:
    """Ids of the users whose messages ``user`` must not see (those they blocked)."""
    if not user.is_authenticated:
        return set()
    return set(UserBlock.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blocked_users(*, user: User) -> list[User]:
    return [b.blocked for b in UserBlock.objects.filter(blocker=user).select_related("blocked")]


def player_by_username(*, username: str) -> User | None:
    """A registered player (banned ones included, so they can be unblocked)."""
    return User.objects.filter(username=username, is_guest=False).first()


def seat_of(*, user: User, match_id: int) -> int | None:
    """The seat index ``user`` holds in the match, or None for a spectator."""
    if not user.is_authenticated:
        return None
    return Seat.objects.filter(match_id=match_id, user=user).values_list("index", flat=True).first()


def chat_can_read(*, user: User, match_id: int | None, tournament_id: int | None = None) -> bool:
    """Lobby: any signed-in user. Table: its players, and spectators if the setting says
    so. Tournament: signed-in users who may see the tournament."""
    if not user.is_authenticated:
        return False
    if match_id is not None:
        return (
            settings.CHAT_SPECTATORS_CAN_READ
            or seat_of(user=user, match_id=match_id) is not None
        )
    if tournament_id is not None:
        return rooms.may_read("tournament", user=user, room_id=tournament_id)
    return True


def tournament_chat_writer(*, user: User, tournament_id: int) -> bool:
    """Whether ``user`` may write in the tournament's room (its players, its creator
    and staff)."""
    return rooms.may_write("tournament", user=user, room_id=tournament_id)


def message_get(*, message_id: int) -> ChatMessage | None:
    """The chat message of that id, with its author, or None."""
    return ChatMessage.objects.filter(pk=message_id).select_related("author").first()


def message_to_dict(message: ChatMessage) -> dict:
    """The wire form: ``{id, author, seat, text, created_at}`` (text is plain text)."""
    return {
        "id": message.pk,
        "author": message.author.display_name,
        "seat": message.seat,
        "text": message.text,
        "created_at": message.created_at.isoformat().replace("+00:00", "Z"),
    }


def chat_history(
    *, user: User, match_id: int | None, tournament_id: int | None = None,
    limit: int | None = None,
) -> list[dict]:
    """The room's last messages, oldest first, without hidden ones and without those of
    users ``user`` blocked."""
    limit = limit or settings.CHAT_HISTORY_SIZE
    messages = (
        ChatMessage.objects.filter(Q(match_id=match_id, tournament_id=tournament_id), hidden=False)
        .exclude(author_id__in=blocked_user_ids(user=user))
        .select_related("author")
        .order_by("-created_at", "-id")[:limit]
    )
    return [message_to_dict(m) for m in reversed(messages)]


def message_context(*, message: ChatMessage, around: int = 5) -> list[ChatMessage]:
    """The message with up to ``around`` messages before and after it in its room (hidden
    ones included: moderators see everything)."""
    room = ChatMessage.objects.filter(
        Q(match_id=message.match_id, tournament_id=message.tournament_id)  # None: IS NULL
    ).select_related("author")
    before = room.filter(
        Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, id__lt=message.pk)
    ).order_by("-created_at", "-id")[:around]
    after = room.filter(
        Q(created_at__gt=message.created_at) | Q(created_at=message.created_at, id__gt=message.pk)
    ).order_by("created_at", "id")[:around]
    return [*reversed(before), message, *after]


def recent_messages_by(*, user: User, limit: int = 20) -> list[ChatMessage]:
    return list(
        ChatMessage.objects.filter(author=user)
        .select_related("match")
        .order_by("-created_at")[:limit]
    )
