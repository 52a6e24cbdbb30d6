"""HTTP routes of the analysis (mounted at the site's root)."""

from django.urls import path

from . import views

app_name = "analysis"
urlpatterns = [
    path("api/match/<int:match_id>/analysis", views.match_analysis, name="api_match"),
    path("match/<int:match_id>/hint", views.hint, name="hint"),
    path(
        "match/<int:match_id>/hand/<int:number>/analysis.json",
        views.hand_review,
        name="hand_review",
    ),
]
