"""WebSocket routes of the social app: the notification socket, and the lobby's and a
tournament's chat sockets with the bell (social/consumers.py; ginsite/routing.py lists
these before the games app's routes, which they replace)."""

from django.urls import path

from .consumers import LobbySocket, NotificationConsumer, TournamentChatSocket

websocket_urlpatterns = [
    path("ws/notifications/", NotificationConsumer.as_asgi()),
    path("ws/lobby/", LobbySocket.as_asgi()),
    path("ws/tournament/<int:tournament_id>/chat/", TournamentChatSocket.as_asgi()),
]
