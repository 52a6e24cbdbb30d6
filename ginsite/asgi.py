"""ASGI entry point: HTTP through Django, WebSockets through Channels routing; in the
embedded mode it also starts the periodic jobs (ginsite/embedded_beat.py). It lightens
daphne's handling of each WebSocket frame (ginsite/websocket_frames.py)."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from ginsite import embedded_beat, websocket_frames  # noqa: E402
from ginsite.i18n import SocketLanguageMiddleware  # noqa: E402
from ginsite.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            # Each socket speaks its person's language (ginsite/i18n.py).
            AuthMiddlewareStack(SocketLanguageMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# Two per-frame costs of daphne's WebSocket layer, taken out (ginsite/websocket_frames.py).
websocket_frames.install()

# The embedded mode's periodic jobs start with the site (a no-op where beat runs).
embedded_beat.start()

# Everything loaded so far (Django, the apps, the URL conf: about 117,000 objects)
# lives as long as the process: out of the garbage collector's sight, so that a full
# collection, which holds up every socket of the process, walks only what the sockets
# made (about 30,000 objects at 200 sockets).
gc.freeze()

