from django.contrib import admin

from .models import Hand, Match, Move, Seat


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
