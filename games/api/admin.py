"""Admin of the open platform: API tokens (read-only but revocable by deletion) and
challenges."""

from django.contrib import admin

from .models import ApiToken, Challenge


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    search_fields = ("user__username", "name", "prefix")
    readonly_fields = ("user", "name", "token_hash", "prefix", "created_at", "last_used_at")
    list_select_related = ("user",)

    def has_add_permission(self, request: object) -> bool:
        return False  # tokens are created by their owner, shown to them once


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ("pk", "challenger", "dest", "variant", "rated", "status", "match",
                    "created_at")
    list_filter = ("status",)
    search_fields = ("challenger__username", "dest__username")
    list_select_related = ("challenger", "dest")
    raw_id_fields = ("challenger", "dest", "match")
