"""HTTP routes of the games app: home, lobby, tables, replays, the offline app."""

from django.urls import path
from django.views.generic import TemplateView

from . import offline_views, views

app_name = "games"
urlpatterns = [
    path("", views.home, name="home"),
    path("play/guest/", views.play_guest, name="play_guest"),
    path("play/computer/", views.play_computer, name="play_computer"),
    path("play/friend/", views.play_friend, name="play_friend"),
    path("play/quick/", views.play_quick, name="play_quick"),
    path("play/quick/cancel/", views.quick_cancel, name="quick_cancel"),
    path("play/quick/status/", views.quick_status, name="quick_status"),
    path("join/<str:token>/", views.join, name="join"),
    path("match/<int:match_id>/", views.table, name="table"),
    path("match/<int:match_id>/cancel/", views.cancel_invite, name="cancel_invite"),
    path("matches/", views.my_matches, name="my_matches"),
    path("match/<int:match_id>/sheet/", views.score_sheet, name="sheet"),
    path("match/<int:match_id>/hand/<int:number>/replay/", views.replay, name="replay"),
    path("match/<int:match_id>/hand/<int:number>/deal.json", views.deal, name="deal"),
    path("play/offline/", offline_views.offline_table, name="offline"),
    path("play/offline/account/", offline_views.offline_account, name="offline_account"),
    path("play/offline/upload/", offline_views.offline_upload, name="offline_upload"),
    path("sw.js", offline_views.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline_views.manifest, name="manifest"),
    path("correspondence/vacation/", views.vacation, name="vacation"),
    path("fairness/", TemplateView.as_view(template_name="games/fairness.html"), name="fairness"),
]
