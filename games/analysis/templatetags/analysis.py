"""Template tags of the analysis: ``{% accuracy_chart user %}`` on the profile page
(analysis/_accuracy_chart.html)."""

from django import template

from games.analysis import selectors

register = template.Library()


@register.inclusion_tag("analysis/_accuracy_chart.html")
def accuracy_chart(user: object) -> dict:
    return {"chart": selectors.accuracy_chart(user=user)}
