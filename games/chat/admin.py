"""Chat in the admin: the report queue (each report with the messages around it and the
actions dismiss / hide / warn / mute / ban), chat messages, the word filter, blocks.

Every change goes through accounts.services, so it is checked and audited; staff
need the ``accounts.moderate`` permission (the Moderators group) to act. Its own labels
are in the staff member's language (the admin's chrome is Django's)."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts import services as moderation
from accounts.models import Ban, Mute, Warning
from ginsite.http import required_user

from .models import ChatMessage, ChatReport, UserBlock, WordFilter
from .selectors import message_context


def may_moderate(request: HttpRequest) -> bool:
    return (
        request.user.is_active
        and request.user.is_staff
        and request.user.has_perm(moderation.MODERATE_PERMISSION)
    )


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=300, widget=forms.TextInput(attrs={"size": 60})
    )


class ResolveForm(forms.Form):
    action = forms.ChoiceField(
        label=_("Action"),
        choices=[
            ("dismiss", _("Dismiss the report (no breach)")),
            ("hide", _("Hide the message")),
            ("warn", _("Warn the author")),
            ("mute", _("Mute the author")),
            ("ban", _("Ban the author")),
        ],
        widget=forms.RadioSelect,
    )
    duration = forms.ChoiceField(
        label=_("Mute for"),
        required=False,
        choices=[
            ("15m", _("15 minutes")),
            ("1h", _("1 hour")),
            ("24h", _("24 hours")),
            ("7d", _("7 days")),
            ("30d", _("30 days")),
        ],
        initial="24h",
    )
    also_hide = forms.BooleanField(
        label=_("Also hide the message"), required=False, initial=True
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        required=False,
        help_text=_("Shown to the player (warn, mute, ban) and kept in the moderation log."),
        widget=forms.TextInput(attrs={"size": 60}),
    )


class RoomFilter(admin.SimpleListFilter):
    title = _("room")
    parameter_name = "room"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list:
        return [
            ("lobby", _("Lobby")), ("table", _("Match tables")), ("tournament", _("Tournaments"))
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        if self.value() == "lobby":
            return queryset.filter(match__isnull=True, tournament__isnull=True)
        if self.value() == "table":
            return queryset.filter(match__isnull=False)
        if self.value() == "tournament":
            return queryset.filter(tournament__isnull=False)
        return queryset


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "room_name", "author", "text", "hidden")
    list_filter = (RoomFilter, "hidden")
    search_fields = ("text", "original_text", "author__username")
    list_select_related = ("author",)
    date_hierarchy = "created_at"
    readonly_fields = (
        "match", "tournament", "author", "seat", "text", "original_text", "hidden", "created_at"
    )
    actions = ["hide_messages"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return may_moderate(request)

    @admin.action(description=_("Hide the selected messages"), permissions=["moderate"])
    def hide_messages(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        form = ReasonForm(request.POST if "apply" in request.POST else None)
        if not form.is_valid():
            return reason_page(
                request, queryset, form, gettext("Hide the selected messages"), "hide_messages"
            )
        for message in queryset.select_related("author"):
            moderation.message_hide(
                staff=required_user(request), message=message, reason=form.cleaned_data["reason"]
            )
        hidden = queryset.count()
        self.message_user(
            request,
            ngettext("%(n)d message hidden.", "%(n)d messages hidden.", hidden) % {"n": hidden},
            messages.SUCCESS,
        )
        return None


def reason_page(
    request: HttpRequest, queryset: QuerySet, form: forms.Form, title: str, action: str
) -> TemplateResponse:
    """The intermediate page of a bulk action that needs a reason (and maybe a time)."""
    return TemplateResponse(
        request,
        "chat/admin/bulk_action.html",
        {
            **admin.site.each_context(request),
            "title": title,
            "objects": queryset,
            "form": form,
            "action": action,
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "opts": queryset.model._meta,
        },
    )


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    """The report queue: open reports first; a report's page shows the message in its
    context and the actions."""

    list_display = ("id", "created_at", "status", "reason", "reported_text", "author", "reporter")
    list_filter = ("status", "reason")
    search_fields = ("message__text", "message__author__username", "reporter__username")
    list_select_related = ("message__author", "reporter")
    actions = ["dismiss_reports"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).order_by("-status", "created_at")

    @admin.display(description=_("message"))
    def reported_text(self, report: ChatReport) -> str:
        return report.message.text[:80]

    @admin.display(description=_("author"), ordering="message__author__username")
    def author(self, report: ChatReport) -> str:
        return report.message.author.display_name

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return may_moderate(request)

    @admin.action(description=_("Dismiss the selected reports"), permissions=["moderate"])
    def dismiss_reports(self, request: HttpRequest, queryset: QuerySet) -> None:
        done = 0
        for report in queryset.filter(status=ChatReport.Status.OPEN).select_related(
            "message__author"
        ):
            moderation.report_dismiss(staff=required_user(request), report=report)
            done += 1
        self.message_user(
            request,
            ngettext("%(n)d report dismissed.", "%(n)d reports dismissed.", done) % {"n": done},
            messages.SUCCESS,
        )

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict | None = None,
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        report = get_object_or_404(
            ChatReport.objects.select_related("message__author", "message__match", "reporter"),
            pk=object_id,
        )
        form = ResolveForm(request.POST if request.method == "POST" else None)
        if request.method == "POST":
            if not may_moderate(request):
                raise PermissionDenied
            if form.is_valid():
                try:
                    done = moderation.report_resolve(
                        staff=required_user(request),
                        report=report,
                        action=form.cleaned_data["action"],
                        reason=form.cleaned_data["reason"],
                        duration=form.cleaned_data["duration"] or None,
                        also_hide=form.cleaned_data["also_hide"],
                    )
                except moderation.AccountError as error:
                    form.add_error(None, str(error))
                else:
                    self.message_user(request, done, messages.SUCCESS)
                    return HttpResponseRedirect(reverse("admin:chat_chatreport_changelist"))
        author = report.message.author
        return TemplateResponse(
            request,
            "chat/admin/resolve_report.html",
            {
                **self.admin_site.each_context(request),
                "title": gettext("Report %(number)s") % {"number": report.pk},
                "opts": self.model._meta,
                "report": report,
                "context_messages": message_context(message=report.message),
                "author": author,
                "author_record": {
                    "reports": ChatReport.objects.filter(message__author=author).count(),
                    "warnings": Warning.objects.filter(user=author).count(),
                    "mutes": Mute.objects.filter(user=author).count(),
                    "bans": Ban.objects.filter(user=author).count(),
                },
                "other_reports": report.message.reports.exclude(pk=report.pk).select_related(
                    "reporter"
                ),
                "form": form,
                "can_moderate": may_moderate(request),
            },
        )


@admin.register(WordFilter)
class WordFilterAdmin(admin.ModelAdmin):
    list_display = ("word", "created_at")
    search_fields = ("word",)


@admin.register(UserBlock)
class UserBlockAdmin(admin.ModelAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
