"""Puzzles in the admin: the collection (by rating, with how often each is solved),
filtered by source and whether it is in play; staff retire a puzzle whose answer
is doubtful (nobody is given it any more, its answers count for nothing, its attempts
stay) and restore one, through games/learn/services.py. Puzzles are made by the
generator only (``manage.py puzzles_generate``), never by hand."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ginsite.http import required_user

from . import services
from .models import Puzzle


class InPlayFilter(admin.SimpleListFilter):
    title = _("in play")
    parameter_name = "in_play"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, Any]]:
        return [("yes", _("In play")), ("no", _("Retired"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> QuerySet[Puzzle]:
        if self.value() in ("yes", "no"):
            return queryset.filter(retired_at__isnull=self.value() == "yes")
        return queryset


def action_words(action: dict[str, Any]) -> str:
    """An action as staff read it: ``discard 7H``, ``knock 6H``, ``draw discard``."""
    return " ".join(str(action[k]) for k in ("type", "source", "card") if action.get(k))


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("id", "rating_shown", "answer", "theme_list", "attempts",
                    "solved", "in_play", "retired_because")
    list_filter = (InPlayFilter, "source")
    ordering = ("-rating",)
    readonly_fields = ["position", "answer", "values_shown",
                       *(f.name for f in Puzzle._meta.fields)]
    actions = ["retire", "restore"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Puzzle | None = None) -> bool:
        return False  # retire instead: nothing answered is ever lost

    @admin.display(description=_("rating"), ordering="rating")
    def rating_shown(self, puzzle: Puzzle) -> int:
        return round(puzzle.rating)

    @admin.display(description=_("answer"))
    def answer(self, puzzle: Puzzle) -> str:
        return action_words(puzzle.best)

    @admin.display(description=_("themes"))
    def theme_list(self, puzzle: Puzzle) -> str:
        return ", ".join(puzzle.themes)

    @admin.display(description=_("position"))
    def position(self, puzzle: Puzzle) -> str:
        view = puzzle.view
        pile = view.get("discard_pile") or ["-"]
        return (f"{view.get('phase')}: hand {' '.join(view.get('hand', []))}; "
                f"deadwood {view.get('deadwood')}; top of the pile {pile[-1]}; "
                f"stock {view.get('stock_count')}")

    @admin.display(description=_("expected points"))
    def values_shown(self, puzzle: Puzzle) -> str:
        return "; ".join(f"{action_words(v['action'])} {v['value']:+.1f}" for v in puzzle.values)

    @admin.display(description=_("in play"), boolean=True, ordering="retired_at")
    def in_play(self, puzzle: Puzzle) -> bool:
        return puzzle.retired_at is None

    @admin.action(description=_("Retire the selected puzzles (their answer is doubtful)"))
    def retire(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        staff = required_user(request)
        count = services.puzzles_retire(puzzles=queryset, because=f"retired by {staff.username}")
        self.message_user(request, f"{count} puzzle(s) retired.", messages.SUCCESS)

    @admin.action(description=_("Put the selected puzzles back in play"))
    def restore(self, request: HttpRequest, queryset: QuerySet[Puzzle]) -> None:
        count = services.puzzles_restore(puzzles=queryset)
        self.message_user(request, f"{count} puzzle(s) back in play.", messages.SUCCESS)
