"""WebSocket routes of the chat app."""

from django.urls import path

from .consumers import LobbyChatConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyChatConsumer.as_asgi()),
]
