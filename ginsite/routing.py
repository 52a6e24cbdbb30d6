"""All WebSocket routes of the site, gathered from the apps."""

from games.routing import websocket_urlpatterns as games_ws

websocket_urlpatterns = [*games_ws]
