"""Template tags of the leaderboard pages and the profile page.

- ``{% rating_chart user %}``: the rating history chart (leaderboards/_rating_chart.html).
- ``{% board_rows rows viewer_id "points" "matches_won" ... %}``: the rows of a board
  table, built in Python with html.escape: 100 rows of 7 cells cost a fraction of a
  millisecond, against several through the template engine (or format_html), on the
  site's busiest page. Numbers are grouped as the page's language writes them.
- ``{{ when|updated_ago }}``: "just now" within the first minute (not "0 minutes
  ago"), else "3 minutes ago".
"""

from collections.abc import Callable
from datetime import datetime
from html import escape
from typing import Any

from django import template
from django.utils import timezone
from django.utils.formats import get_format, number_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince
from django.utils.translation import gettext

from accounts.models import User
from games import messages
from leaderboards import selectors

register = template.Library()


@register.filter
def updated_ago(when: datetime) -> str:
    if (timezone.now() - when).total_seconds() < 60:
        return gettext("just now")
    return gettext("%(time)s ago") % {"time": timesince(when)}


@register.filter
def level_name(level: str) -> str:
    """A computer level as a seat's name says it ("hard"), in the page's language."""
    return messages.level_name(level)


@register.filter
def period_label(period: Any) -> str:
    """The period's name in the page's language (leaderboards/selectors.py)."""
    return selectors.period_label(period)


@register.inclusion_tag("leaderboards/_rating_chart.html")
def rating_chart(user: User) -> dict:
    return {"chart": selectors.rating_chart(user=user)}


def _grouping() -> Callable[[object], str]:
    """The cells' numbers as the page's language writes them (1,234; 1.234; 1 234):
    ints grouped by the language's separator, looked up once per table; anything else
    (a win rate of 62.5) by Django's number_format, then HTML-escaped."""
    separator = str(get_format("THOUSAND_SEPARATOR"))

    def cell(value: object) -> str:
        if type(value) is int:  # counts and rounded ratings: no escaping needed
            return f"{value:,}".replace(",", separator)
        if type(value) is float:
            return escape(number_format(value, use_l10n=True, force_grouping=True))
        return escape(str(value))

    return cell


@register.simple_tag
def board_rows(rows: list[dict], viewer_id: int | None, *fields: str) -> SafeString:
    """One <tr> per row: position, the player linked to their profile, then ``fields``
    as right-aligned numbers, grouped as the page's language groups thousands; the
    viewer's own row is marked ``is-you``. Every value is HTML-escaped."""
    cell = _grouping()
    lines = []
    for row in rows:
        mark = ' class="is-you"' if row["user_id"] == viewer_id else ""
        name = row["user__username"]
        cells = "".join(f'<td class="num">{cell(row[f])}</td>' for f in fields)
        lines.append(
            f'<tr{mark}><td class="num">{cell(row["position"])}</td>'
            f'<td><a href="{escape(selectors.profile_url(name))}">{escape(name)}</a></td>'
            f"{cells}</tr>"
        )
    return mark_safe("\n".join(lines))  # every value escaped above
