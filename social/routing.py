"""WebSocket routes of the social app: the notification socket, and the lobby's, a
tournament's and a table's sockets with the bell (social/consumers.py; ginsite/routing.py
lists these before the games and tournaments apps' routes, which they replace)."""

from django.urls import path

from .consumers import LobbySocket, MatchSocket, NotificationConsumer, TournamentSocket

websocket_urlpatterns = [
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    path("ws/lobby/", LobbySocket.as_asgi()),
    path("ws/tournament/<int:tournament_id>/", TournamentSocket.as_asgi()),
    path("ws/match/<int:match_id>/", MatchSocket.as_asgi()),
]
