"""WebSocket routes of the tournaments app."""

from django.urls import path

from .consumers import TournamentChatConsumer, TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/tournament/<int:tournament_id>/chat/", TournamentChatConsumer.as_asgi()),
]
