"""Admin: boards and ratings are read-only records (recompute with the
``rebuild_leaderboard`` command; the schedule is under Periodic tasks)."""

from django.contrib import admin

from leaderboards.models import Board, BoardEntry, ComputerBoardEntry, Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Board)
class BoardAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "kind", "period_start", "min_matches", "computed_at", "finalised_at")
    list_filter = ("kind",)


@admin.register(BoardEntry)
class BoardEntryAdmin(ReadOnlyAdmin):
    list_display = ("board", "rank", "user", "points", "matches_played", "matches_won")
    list_select_related = ("board", "user")
    search_fields = ("user__username",)


@admin.register(ComputerBoardEntry)
class ComputerBoardEntryAdmin(ReadOnlyAdmin):
    list_display = ("level", "rank", "user", "matches_played", "matches_won")
    list_filter = ("level",)
    list_select_related = ("user",)
    search_fields = ("user__username",)


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "rating", "deviation", "volatility", "rated_matches", "updated_at")
    list_select_related = ("user",)
    search_fields = ("user__username",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("user", "match", "rating_before", "rating", "at")
    list_select_related = ("user",)
    search_fields = ("user__username",)
