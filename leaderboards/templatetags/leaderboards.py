"""``{% load leaderboards %}{% rating_chart user %}``: the profile page's rating chart."""

from django import template

from accounts.models import User
from leaderboards import selectors

register = template.Library()


@register.inclusion_tag("leaderboards/_rating_chart.html")
def rating_chart(user: User) -> dict:
    return {"chart": selectors.rating_chart(user=user)}
