"""WebSocket routes of the tournaments app."""

from django.urls import path

from .consumers import TournamentConsumer

# The site routes this path to social's socket first (the same with the bell).
websocket_urlpatterns = [
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]
