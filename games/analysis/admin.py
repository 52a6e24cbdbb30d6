"""Read-mostly admin of analyses and hints (to see what a player was told)."""

from django.contrib import admin

from .models import HandAnalysis, Hint


@admin.register(HandAnalysis)
class HandAnalysisAdmin(admin.ModelAdmin):
    list_display = ("hand", "match", "done", "accuracy", "cpu_seconds", "completed_at")
    list_filter = ("done",)
    readonly_fields = ("hand", "match", "decisions", "accuracy", "counts", "setting")
    raw_id_fields = ("hand", "match")


@admin.register(Hint)
class HintAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "version", "action", "created_at")
    raw_id_fields = ("match", "hand")
