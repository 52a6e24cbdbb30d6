"""Admin of tournaments: recurring schedules (beat creates the instances), tournaments
(create one-off events; cancel), entrants (remove a player) and the audit trail of
each tournament (read-only: written by the services)."""

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from ginsite.http import required_user

from . import services
from .models import Entrant, Tournament, TournamentEvent, TournamentSchedule


@admin.register(TournamentSchedule)
class TournamentScheduleAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "kind", "weekday", "nth", "hour", "minute", "active")
    list_filter = ("format", "kind", "active")
    actions = ["create_now"]

    @admin.action(description="Create the upcoming instances now")
    def create_now(self, request: HttpRequest, queryset: QuerySet) -> None:
        created = services.schedules_create_due()
        self.message_user(request, f"{created} tournament(s) created.", messages.SUCCESS)


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ("user", "status", "points", "wins", "losses", "byes", "streak", "rank")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class EventInline(admin.TabularInline):
    model = TournamentEvent
    extra = 0
    fields = ("at", "kind", "actor", "detail")
    readonly_fields = fields
    can_delete = False
    verbose_name_plural = "audit trail"

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "format", "status", "starts_at", "public", "schedule")
    list_filter = ("status", "format", "public")
    search_fields = ("name",)
    readonly_fields = ("status", "current_round", "started_at", "ends_at", "finished_at",
                       "invite_token", "standings_version", "published_version",
                       "published_at", "created_by", "schedule")
    inlines = [EntrantInline, EventInline]
    actions = ["cancel"]

    def save_model(self, request: HttpRequest, obj: Tournament, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        services.audit(obj, "edited" if change else "created", "in the admin",
                       actor=required_user(request))

    @admin.action(description="Cancel the selected tournaments")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            services.tournament_cancel(tournament=tournament, staff=required_user(request),
                                       reason="cancelled in the admin")
        self.message_user(request, f"{queryset.count()} tournament(s) cancelled.",
                          messages.SUCCESS)


@admin.register(Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ("user", "tournament", "status", "points", "rank")
    list_filter = ("status",)
    search_fields = ("user__username", "tournament__name")
    list_select_related = ("user", "tournament")
    readonly_fields = ("tournament", "user", "status", "rating", "points", "wins", "losses",
                       "byes", "streak", "missed", "waiting_since", "last_opponent",
                       "tiebreak1", "tiebreak2", "rank")
    actions = ["remove"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Remove the selected players from their tournament")
    def remove(self, request: HttpRequest, queryset: QuerySet[Entrant]) -> None:
        for entrant in queryset:
            services.entrant_remove(entrant=entrant, staff=required_user(request),
                                    reason="removed in the admin")
        self.message_user(request, f"{queryset.count()} player(s) removed.", messages.SUCCESS)
