from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone

from ginsite.http import required_user

from .models import Hand, Match, Move, RatedPlayBan, Seat
from .services import fairplay


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "variant", "status", "rated", "created_at", "finished_at")
    list_filter = ("status", "kind", "variant", "rated")
    inlines = [SeatInline]


admin.site.register(Hand)
admin.site.register(Move)


@admin.register(RatedPlayBan)
class RatedPlayBanAdmin(admin.ModelAdmin):
    """Bans from rated play for leaving rated matches (games/services/fairplay.py):
    written by the site, never by hand; staff may lift one early."""

    list_display = (
        "user", "in_force", "time_left", "offence", "abandonments", "starts_at", "until",
        "lifted_at", "match",
    )
    list_filter = ("offence",)
    list_select_related = ("user", "match")
    search_fields = ("user__username",)
    readonly_fields = (
        "user", "match", "offence", "abandonments", "starts_at", "until", "lifted_at",
        "lifted_by",
    )
    actions = ["lift"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(boolean=True, description="In force")
    def in_force(self, ban: RatedPlayBan) -> bool:
        return ban.lifted_at is None and ban.until > timezone.now()

    @admin.display(description="Time left")
    def time_left(self, ban: RatedPlayBan) -> str:
        if not self.in_force(ban):
            return "-"
        return fairplay.time_left_words(ban.until - timezone.now())

    @admin.action(description="Lift the selected bans now")
    def lift(self, request: HttpRequest, queryset: QuerySet[RatedPlayBan]) -> None:
        staff = required_user(request)
        lifted = sum(fairplay.ban_lift(ban=ban, staff=staff) for ban in queryset)
        self.message_user(request, f"{lifted} ban(s) lifted.", messages.SUCCESS)
