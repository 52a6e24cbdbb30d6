"""Persistent matches: Match, Seat, Hand (engine state, seed, commitment) and the
append-only Move log that can rebuild every hand exactly."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def _is_set(field: str) -> models.Q:
    """The rows of a partial index: those where ``field`` is not null."""
    return models.Q(**{f"{field}__isnull": False})


class Match(models.Model):
    """A match of several hands to a target score between two seats."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for an opponent"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"
        # A friend invitation closed before anyone accepted it (never played).
        CANCELLED = "cancelled", "Invitation closed"

    class EndReason(models.TextChoices):
        TARGET = "target", _("Target score reached")
        RESIGN = "resign", _("Resigned")
        ABANDON = "abandon", _("Abandoned")
        # A moderator suspended (banned) a player: they forfeit every match in play.
        SUSPENDED = "suspended", _("Forfeit: account suspended")
        # A correspondence match's player ran out of days for a turn.
        TIMEOUT = "timeout", _("Ran out of time")
        # Why an invitation closed unanswered (status CANCELLED).
        INVITE_CANCELLED = "cancelled", _("Invitation cancelled by its host")
        INVITE_EXPIRED = "expired", _("Invitation expired")

    class Kind(models.TextChoices):
        COMPUTER = "computer", "Against the computer"
        FRIEND = "friend", "Against a friend"
        QUICK = "quick", "Quick match"
        OFFLINE = "offline", "Offline against the computer"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    variant = models.CharField(max_length=32, default="default")
    rules = models.JSONField()  # RuleSet.to_dict()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.WAITING)
    version = models.PositiveIntegerField(default=0)
    rated = models.BooleanField(default=False)
    invite_token = models.CharField(max_length=32, null=True, blank=True)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    end_reason = models.CharField(max_length=16, choices=EndReason.choices, blank=True)
    # Turn clock (docs/rules.md section 9): when the current turn runs out, or null.
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # A correspondence match (games/services/correspondence.py): the days a whole turn
    # may take (1, 3 or 7), null for live play; the turn's deadline, vacations of the
    # player to move counted in, checked by beat's correspondence job (the live clock
    # never looks at it: such a match has no turn_deadline and no clock_due_at).
    days_per_move = models.PositiveSmallIntegerField(null=True, blank=True)
    move_deadline = models.DateTimeField(null=True, blank=True)
    # Seat to move in the current hand (null when waiting or finished); mirrors the
    # engine state so listings and the clock sweep need no JSON decoding.
    current_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # When the seat to move got the turn (the disconnection limit counts from here).
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # When the clock sweep must look at this match next (the turn's deadline or the
    # disconnection limit of the player to move); null when nothing is timed.
    clock_due_at = models.DateTimeField(null=True, blank=True)
    # The finished hands as the table lists them ({number, dealer, commitment, seed,
    # result}, in order): a move that ends a hand appends one; the live table and the
    # engine's MatchState are built from it without reading the Hand rows.
    finished_hands = models.JSONField(default=list, blank=True)
    # score_match(...).to_dict() once the match is over (forfeits included).
    final_score = models.JSONField(null=True, blank=True)
    # Ended (resigned, abandoned, forfeited) before each player had made two moves of
    # their own (games/services/play.py ABORT_BEFORE_MOVES): never rated, counted on
    # no board, shown as "Aborted". The winner stays recorded for tournaments.
    aborted = models.BooleanField(default=False, db_default=False)
    # The tournament that paired this match, if any, as the tournaments app said when it
    # created it (games/services/matches.py create_started_matches): a plain id, so the
    # core of play depends on no tournament table; it goes out with the match's events
    # (games/events.py). The tournament's own record is its Pairing.
    tournament_id = models.PositiveIntegerField(null=True, blank=True)
    # Seat that offered a rematch of this finished match, until the other accepts.
    rematch_offered_by = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches",
        db_index=False,
    )
    # An offline match (kind "offline", never rated) keeps the id the browser gave
    # it, so that uploading it again finds the match instead of making a copy.
    offline_id = models.CharField(max_length=64, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        # A move rewrites the match row. When the turn passes, its clock_due_at changes
        # and PostgreSQL writes the new row version into every index whose condition
        # it meets: the indexes of columns that are null while a match is in play are
        # partial (they leave those rows out), and none repeats another's leading
        # column (docs/benchmarks-log.md, "Two round trips a move, fewer indexes").
        constraints = [
            models.UniqueConstraint(
                fields=[field], name=f"match_{field}", condition=_is_set(field)
            )
            for field in ("invite_token", "offline_id")
        ]
        indexes = [
            models.Index(fields=["status", "finished_at"]),
            models.Index(
                fields=["clock_due_at"], name="match_clock_due", condition=_is_set("clock_due_at")
            ),
            models.Index(
                fields=["move_deadline"], name="match_move_deadline",
                condition=_is_set("move_deadline"),
            ),
            *(
                models.Index(fields=[field], name=f"match_{field}", condition=_is_set(field))
                for field in ("finished_at", "rematch_of")
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.get_status_display()})"


class Seat(models.Model):
    """One of the two seats of a match: a user or a computer level, and its score."""

    # Indexed by one_seat_per_index (match, index).
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seats", db_index=False
    )
    index = models.PositiveSmallIntegerField()  # 0 or 1
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    bot_level = models.CharField(max_length=16, blank=True)  # easy/medium/hard/expert
    # Running total before bonuses while playing; final total once the match is over.
    score = models.IntegerField(default=0)
    hands_won = models.PositiveIntegerField(default=0)
    gins = models.PositiveIntegerField(default=0)
    big_gins = models.PositiveIntegerField(default=0)
    undercuts = models.PositiveIntegerField(default=0)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    # Whether the seat's player has a match socket open (a SeatSocket row; several
    # tabs count once). Kept here so reads and the clock sweep need no join.
    connected = models.BooleanField(default=False)
    # When the player was last seen once the seat is disconnected: their last socket
    # closed, or a socket lost with its server process was last renewed. While
    # connected: when one of several sockets last closed (or null), kept in case the
    # remaining ones turn out to be dead.
    disconnected_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="one_seat_per_index"),
        ]
        ordering = ["index"]

    def __str__(self) -> str:
        who = self.user.username if self.user else f"computer ({self.bot_level})"
        return f"Seat {self.index} of match {self.match_id}: {who}"


class SeatSocket(models.Model):
    """One open match WebSocket of a seated player (games/services/presence.py).

    Its server process renews ``last_seen`` while the socket lives; a process that
    dies without closing its sockets (kill -9, a lost machine) stops renewing them,
    and the clock sweep removes them once they are stale.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="sockets")
    channel_name = models.CharField(max_length=100, unique=True)  # the consumer's
    # Not indexed on purpose: the renewal (one UPDATE per socket every 25 s) then
    # stays a heap-only update; the sweep scans a table of open sockets only.
    last_seen = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.channel_name} of {self.seat}"


class Hand(models.Model):
    """One deal of a match. ``state`` is the engine's HandState.to_dict(); the seed
    stays secret until the hand is over, ``seed_hash`` is shown from the deal."""

    # Indexed by one_hand_per_number (match, number).
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="hands", db_index=False
    )
    number = models.PositiveIntegerField()  # 1-based
    dealer = models.PositiveSmallIntegerField()
    seed = models.BinaryField()
    seed_hash = models.CharField(max_length=64)  # sha256 hex of the seed
    state = models.JSONField()
    result = models.JSONField(null=True, blank=True)  # HandResult.to_dict() once over
    # Denormalised from the result for SQL aggregation (leaderboards, profiles).
    result_kind = models.CharField(max_length=16, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_hand_per_number"),
        ]
        ordering = ["match", "number"]


class Move(models.Model):
    """Append-only log of accepted actions. ``seq`` is the match version the move
    produced; replaying a hand's moves on its deal rebuilds its state exactly."""

    # Indexed by one_move_per_version (match, seq).
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="moves", db_index=False
    )
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    auto = models.BooleanField(default=False)  # played by the server on a timeout
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="one_move_per_version"),
        ]
        ordering = ["match", "seq"]


class QuickMatchEntry(models.Model):
    """A registered player waiting in the quick-match queue with the settings they want.

    Players are paired when ``variant`` and ``rules_key`` (a digest of the rule set)
    are equal. The entry of the player who waited keeps the match it led to, so
    their lobby can find it."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quickmatch_entry"
    )
    variant = models.CharField(max_length=32)
    rules = models.JSONField()
    rules_key = models.CharField(max_length=64, db_index=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "quick match entries"
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"{self.user} waiting for {self.variant}"


class Vacation(models.Model):
    """A player on vacation from ``starts_at`` to ``ends_at``: the clocks of their
    correspondence matches stop meanwhile (at most 14 days a calendar year:
    games/engine/correspondence.py)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "ends_at"])]
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"Vacation of {self.user_id} from {self.starts_at:%Y-%m-%d}"


class RatedPlayBan(models.Model):
    """A time out from rated play after repeated abandonment of rated matches
    (games/services/fairplay.py says when and for how long). Staff may lift one."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rated_play_bans"
    )
    # The abandonment that caused it.
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL)
    # 1 for a first ban, 2 for a repeat (twice as long)... counted over FORGIVE_AFTER.
    offence = models.PositiveSmallIntegerField()
    abandonments = models.PositiveSmallIntegerField()  # within the window, this one included
    starts_at = models.DateTimeField()
    until = models.DateTimeField(db_index=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["user", "until"])]

    def __str__(self) -> str:
        return f"Rated play ban of {self.user} until {self.until:%Y-%m-%d %H:%M} UTC"
