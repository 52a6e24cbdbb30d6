"""Accounts in the admin: users (search, their reports, mutes, bans, warnings and
recent chat on their page; bulk warn / mute / ban and their reversals), read-only
lists of mutes, bans and warnings, and the moderation log (never editable). Its own
labels are in the staff member's language (the admin's chrome is Django's).

Changes go through accounts.services, which check the ``accounts.moderate``
permission and write the audit log."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.chat.admin import may_moderate, reason_page
from games.chat.models import ChatReport
from games.chat.selectors import recent_messages_by
from ginsite.http import required_user

from . import services
from .models import Ban, ModerationAction, Mute, Profile, User, Warning


class UserActionForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=300, widget=forms.TextInput(attrs={"size": 60})
    )


# How long a mute lasts, as the moderators choose it (games/chat/admin.py too).
MUTE_CHOICES = [
    ("15m", _("15 minutes")),
    ("1h", _("1 hour")),
    ("24h", _("24 hours")),
    ("7d", _("7 days")),
    ("30d", _("30 days")),
]


class MuteForm(UserActionForm):
    duration = forms.ChoiceField(label=_("Mute for"), choices=MUTE_CHOICES, initial="24h")


def _table(headers: list[str], rows: list[tuple]) -> str:
    if not rows:
        return gettext("none")
    head = format_html_join("", "<th>{}</th>", ((h,) for h in headers))
    body = format_html_join(
        "",
        "<tr>{}</tr>",
        ((format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows),
    )
    return format_html("<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", head, body)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "email", "is_guest", "is_staff", "is_active", "date_joined")
    list_filter = ("is_guest", "is_staff", "is_active", "groups")
    search_fields = ("username", "email")
    readonly_fields = (
        "reports_against",
        "warnings_given",
        "mutes_given",
        "bans_given",
        "recent_chat",
    )
    fieldsets = (
        *(BaseUserAdmin.fieldsets or ()),
        (_("Platform"), {"fields": ("is_guest",)}),
        (
            _("Moderation record"),
            {
                "fields": (
                    "reports_against",
                    "warnings_given",
                    "mutes_given",
                    "bans_given",
                    "recent_chat",
                )
            },
        ),
    )
    actions = ["warn_users", "mute_users", "unmute_users", "ban_users", "unban_users"]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return may_moderate(request)

    @admin.display(description=_("Reports on their messages"))
    def reports_against(self, user: User) -> str:
        reports = ChatReport.objects.filter(message__author=user).select_related(
            "reporter", "message"
        )[:20]
        return _table(
            [gettext("when"), gettext("reporter"), gettext("reason"), gettext("message"),
             gettext("status")],
            [
                (
                    f"{r.created_at:%Y-%m-%d %H:%M}",
                    r.reporter.username,
                    r.get_reason_display(),
                    format_html(
                        '<a href="{}">{}</a>',
                        reverse("admin:chat_chatreport_change", args=[r.pk]),
                        r.message.text[:60],
                    ),
                    r.get_status_display(),
                )
                for r in reports
            ],
        )

    @admin.display(description=_("Warnings"))
    def warnings_given(self, user: User) -> str:
        rows = [
            (f"{w.created_at:%Y-%m-%d %H:%M}", w.reason, w.created_by or "-")
            for w in Warning.objects.filter(user=user).select_related("created_by")[:20]
        ]
        return _table([gettext("when"), gettext("reason"), gettext("by")], rows)

    @admin.display(description=_("Mutes"))
    def mutes_given(self, user: User) -> str:
        rows = [
            (
                f"{m.created_at:%Y-%m-%d %H:%M}",
                f"{m.until:%Y-%m-%d %H:%M}",
                gettext("in force") if m.is_active else gettext("over"),
                m.reason,
                m.created_by or "-",
            )
            for m in Mute.objects.filter(user=user).select_related("created_by")[:20]
        ]
        return _table(
            [gettext("when"), gettext("until"), gettext("state"), gettext("reason"), gettext("by")],
            rows,
        )

    @admin.display(description=_("Bans"))
    def bans_given(self, user: User) -> str:
        rows = [
            (
                f"{b.created_at:%Y-%m-%d %H:%M}",
                gettext("lifted") if b.lifted_at else gettext("in force"),
                b.reason,
                b.created_by or "-",
            )
            for b in Ban.objects.filter(user=user).select_related("created_by")[:20]
        ]
        return _table([gettext("when"), gettext("state"), gettext("reason"), gettext("by")], rows)

    @admin.display(description=_("Recent chat"))
    def recent_chat(self, user: User) -> str:
        rows = [
            (
                f"{m.created_at:%Y-%m-%d %H:%M}",
                m.room_name,
                m.original_text,
                gettext("hidden") if m.hidden else "",
            )
            for m in recent_messages_by(user=user)
        ]
        return _table([gettext("when"), gettext("room"), gettext("text"), ""], rows)

    def _bulk(
        self,
        request: HttpRequest,
        queryset: QuerySet,
        *,
        form_class: type[forms.Form],
        title: str,
        action: str,
        apply: Callable[[Any, dict[str, Any]], object],
    ) -> HttpResponse | None:
        form = form_class(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return reason_page(request, queryset, form, title, action)
        done = 0
        for user in queryset:
            try:
                apply(user, form.cleaned_data)
            except services.AccountError as error:
                self.message_user(request, f"{user.username}: {error}", messages.WARNING)
            else:
                done += 1
        users = ngettext("%(n)d user", "%(n)d users", done) % {"n": done}
        self.message_user(
            request, gettext("%(action)s: done for %(users)s.") % {"action": title, "users": users},
            messages.SUCCESS,
        )
        return None

    @admin.action(description=_("Warn the selected users"), permissions=["moderate"])
    def warn_users(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return self._bulk(
            request,
            queryset,
            form_class=UserActionForm,
            title=gettext("Warn"),
            action="warn_users",
            apply=lambda user, data: services.user_warn(
                staff=required_user(request), user=user, reason=data["reason"]
            ),
        )

    @admin.action(description=_("Mute the selected users"), permissions=["moderate"])
    def mute_users(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return self._bulk(
            request,
            queryset,
            form_class=MuteForm,
            title=gettext("Mute"),
            action="mute_users",
            apply=lambda user, data: services.user_mute(
                staff=required_user(request),
                user=user,
                duration=services.MUTE_DURATIONS[data["duration"]],
                reason=data["reason"],
            ),
        )

    @admin.action(description=_("Lift the mutes of the selected users"), permissions=["moderate"])
    def unmute_users(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return self._bulk(
            request,
            queryset,
            form_class=UserActionForm,
            title=gettext("Unmute"),
            action="unmute_users",
            apply=lambda user, data: services.user_unmute(
                staff=required_user(request), user=user, reason=data["reason"]
            ),
        )

    @admin.action(description=_("Ban the selected users"), permissions=["moderate"])
    def ban_users(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return self._bulk(
            request,
            queryset,
            form_class=UserActionForm,
            title=gettext("Ban"),
            action="ban_users",
            apply=lambda user, data: services.user_ban(
                staff=required_user(request), user=user, reason=data["reason"]
            ),
        )

    @admin.action(description=_("Lift the bans of the selected users"), permissions=["moderate"])
    def unban_users(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        return self._bulk(
            request,
            queryset,
            form_class=UserActionForm,
            title=gettext("Unban"),
            action="unban_users",
            apply=lambda user, data: services.user_unban(
                staff=required_user(request), user=user, reason=data["reason"]
            ),
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written only by the moderation services: viewable, never added, edited or
    deleted from the admin."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Mute)
class MuteAdmin(ReadOnlyAdmin):
    list_display = ("user", "until", "reason", "created_by", "created_at", "lifted_at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")


@admin.register(Ban)
class BanAdmin(ReadOnlyAdmin):
    list_display = ("user", "reason", "created_by", "created_at", "lifted_at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")


@admin.register(Warning)
class WarningAdmin(ReadOnlyAdmin):
    list_display = ("user", "reason", "created_by", "created_at")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "created_by")


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "actor", "kind", "target_user", "reason")
    list_filter = ("kind",)
    search_fields = ("actor__username", "target_user__username", "reason")
    list_select_related = ("actor", "target_user")
    date_hierarchy = "created_at"


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "card_style", "sound_on", "four_colour_deck")
    search_fields = ("user__username",)
