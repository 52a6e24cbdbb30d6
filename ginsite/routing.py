"""All WebSocket routes of the site, gathered from the apps."""

from games.chat.routing import websocket_urlpatterns as chat_ws
from games.routing import websocket_urlpatterns as games_ws
from games.tournaments.routing import websocket_urlpatterns as tournaments_ws
from social.routing import websocket_urlpatterns as social_ws

websocket_urlpatterns = [*games_ws, *chat_ws, *tournaments_ws, *social_ws]
