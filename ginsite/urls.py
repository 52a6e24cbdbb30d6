"""Root URL configuration."""

from django.contrib import admin
from django.urls import include, path

from accounts.guest_signup import GuestAwareSignupView
from ginsite.health import health

urlpatterns = [
    path("healthz", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", GuestAwareSignupView.as_view(), name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("players/", include("accounts.urls")),
    path("chat/", include("games.chat.urls")),
    path("leaderboards/", include("leaderboards.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("games.api.urls")),
    path("", include("games.analysis.urls")),
    path("", include("games.urls")),
]

# Overload (the database's connections all in use) answers 503 with Retry-After; any
# other uncaught error is Django's 500 page.
handler500 = "ginsite.overload.server_error"
