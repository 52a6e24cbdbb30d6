"""Routes of the open platform: the match export, the bot API (docs/bot-api.md), its
OpenAPI document and reference page, the API tokens page and challenges from profile
pages."""

from django.urls import path

from . import views

app_name = "api"
urlpatterns = [
    path("api/openapi.json", views.openapi_document, name="openapi_document"),
    path("api/docs/", views.api_reference, name="reference"),
    path("match/<int:match_id>/export.json", views.match_export, name="match_export"),
    path("api/match/<int:match_id>/export", views.api_match_export, name="api_match_export"),
    path("export/key.json", views.export_key, name="export_key"),
    path("export/verify_gin.py", views.export_verifier, name="export_verifier"),
    path("api/user/<str:username>/matches", views.user_matches, name="user_matches"),
    path("api/account", views.account, name="account"),
    path("api/bot/account/upgrade", views.bot_upgrade, name="bot_upgrade"),
    path("api/stream/event", views.event_stream, name="event_stream"),
    path("api/challenge/computer", views.challenge_computer, name="challenge_computer"),
    path("api/challenge/<int:challenge_id>/accept", views.challenge_accept,
         name="challenge_accept"),
    path("api/challenge/<int:challenge_id>/decline", views.challenge_decline,
         name="challenge_decline"),
    path("api/challenge/<int:challenge_id>/cancel", views.challenge_cancel,
         name="challenge_cancel"),
    path("api/challenge/<str:username>", views.challenge_create, name="challenge_create"),
    path("api/bot/match/<int:match_id>/stream", views.match_stream, name="match_stream"),
    path("api/bot/match/<int:match_id>/state", views.match_state, name="match_state"),
    path("api/bot/match/<int:match_id>/action", views.match_action, name="match_action"),
    path("api/bot/match/<int:match_id>/resign", views.match_resign, name="match_resign"),
    path("api/bot/match/<int:match_id>/chat", views.match_chat, name="match_chat"),
    path("players/settings/tokens/", views.tokens_page, name="tokens"),
    path("players/settings/tokens/<int:token_id>/revoke/", views.token_revoke,
         name="token_revoke"),
    path("players/<str:username>/challenge/", views.profile_challenge, name="profile_challenge"),
    path("challenge/<int:challenge_id>/", views.challenge_page, name="challenge_page"),
    path("challenge/<int:challenge_id>/status.json", views.challenge_status,
         name="challenge_status"),
    path("challenge/<int:challenge_id>/cancel/", views.challenge_page_cancel,
         name="challenge_page_cancel"),
    path("challenge/<int:challenge_id>/accept/", views.challenge_page_accept,
         name="challenge_page_accept"),
    path("challenge/<int:challenge_id>/decline/", views.challenge_page_decline,
         name="challenge_page_decline"),
]
