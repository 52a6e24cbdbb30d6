"""All WebSocket routes of the site, gathered from the apps."""

from games.chat.routing import websocket_urlpatterns as chat_ws
from games.routing import websocket_urlpatterns as games_ws
from games.tournaments.routing import websocket_urlpatterns as tournaments_ws
from social.routing import websocket_urlpatterns as social_ws

# social's first: its lobby, tournament and match sockets are those apps' with the bell
# (one socket per page), and take those paths before the plain ones.
websocket_urlpatterns = [*social_ws, *games_ws, *chat_ws, *tournaments_ws]
