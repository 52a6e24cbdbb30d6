"""Fair play in the admin: the queue of cases (open ones first, the strongest evidence
first), each case's page with its numbers and pictures and the decision (dismiss,
warn, remove from the boards, close the accounts; for farming, the pair's matches
voided), and the runs of the detection (read-only).

Decisions go through games/fairplay/services.py ``case_decide``, which checks the
``accounts.moderate`` permission and writes the moderation log (as chat reports do:
games/chat/admin.py)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts import services as moderation
from games.chat.admin import may_moderate
from ginsite.http import required_user

from . import selectors, services
from .models import Case, DetectionRun


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[
            ("dismiss", _("Dismiss: no breach (the players are not told)")),
            ("warn", _("Warn the account(s)")),
            ("remove", _("Remove the account(s) from the boards")),
            ("close", _("Close the account(s) (ban)")),
        ],
        widget=forms.RadioSelect,
    )
    revert = forms.BooleanField(
        label=_("Void the pair's matches named here: their board points and rating changes "
                "are taken back for everyone affected (not on dismiss)"),
        required=False, initial=True,
    )
    reason = forms.CharField(
        label=_("Reason"),
        max_length=300, required=False, widget=forms.TextInput(attrs={"size": 60}),
        help_text=_("Shown to the player (warn, remove, close) and kept in the moderation log."),
    )


@admin.register(Case)
class CaseAdmin(admin.ModelAdmin):
    """The queue: open cases ordered by the strength of their evidence."""

    list_display = ("strength", "kind", "summary", "status", "decision", "opened_at",
                    "updated_at")
    list_display_links = ("summary",)
    list_filter = ("status", "kind", "decision")
    search_fields = ("summary", "users__username")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Case]:
        return selectors.queue()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "",
        extra_context: dict | None = None,
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            raise PermissionDenied
        case = get_object_or_404(Case, pk=object_id)
        form = DecisionForm(request.POST if request.method == "POST" else None)
        if request.method == "POST":
            if not may_moderate(request):
                raise PermissionDenied
            if form.is_valid():
                try:
                    decided = services.case_decide(
                        staff=required_user(request), case=case,
                        decision=form.cleaned_data["decision"],
                        reason=form.cleaned_data["reason"],
                        revert=form.cleaned_data["revert"],
                    )
                except (services.FairPlayError, moderation.AccountError) as error:
                    form.add_error(None, str(error))
                else:
                    self.message_user(request, decided.sentence, messages.SUCCESS)
                    return HttpResponseRedirect(reverse("admin:fairplay_case_changelist"))
        return TemplateResponse(
            request,
            "fairplay/admin/case.html",
            {
                **self.admin_site.each_context(request),
                **selectors.case_page(case=case),
                "title": gettext("%(kind)s case %(number)s")
                % {"kind": case.get_kind_display(), "number": case.pk},
                "opts": self.model._meta,
                "form": form,
                "can_moderate": may_moderate(request),
            },
        )


@admin.register(DetectionRun)
class DetectionRunAdmin(admin.ModelAdmin):
    list_display = ("started_at", "cpu_seconds", "matches_summarised", "accounts_checked",
                    "pairs_checked", "cases_opened", "cases_updated", "signals_deleted")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
