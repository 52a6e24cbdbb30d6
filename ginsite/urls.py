"""Root URL configuration."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView

from accounts.guest_signup import GuestAwareSignupView
from accounts.views import language_choose
from ginsite.health import health
from ginsite.i18n import javascript_catalog

urlpatterns = [
    path("healthz", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/signup/", GuestAwareSignupView.as_view(), name="account_signup"),
    path("accounts/", include("allauth.urls")),
    path("players/", include("accounts.urls")),
    # The footer's language chooser, and the browser code's translations per language.
    path("language/", language_choose, name="language"),
    path("jsi18n/<str:language>.js", javascript_catalog, name="javascript_catalog"),
    path("chat/", include("games.chat.urls")),
    path("fairplay/", include("games.fairplay.urls")),
    # What the site keeps about players and for how long (templates/privacy.html).
    path("privacy/", TemplateView.as_view(
        template_name="privacy.html",
        extra_context={"signal_days": settings.FAIRPLAY_SIGNAL_DAYS},
    ), name="privacy"),
    path("leaderboards/", include("leaderboards.urls")),
    path("", include("games.learn.urls")),
    path("", include("social.urls")),
    path("", include("games.tournaments.urls")),
    path("", include("games.api.urls")),
    path("", include("games.analysis.urls")),
    path("", include("games.urls")),
]

# Django's own refusals answer a JSON route with ginsite/errors.py's one body and an
# HTML route with the site's page. Overload (the database's connections all in use)
# answers 503 with Retry-After; any other uncaught error is the 500 page (JSON route:
# the one body, code server_error).
handler400 = "ginsite.errors.bad_request"
handler403 = "ginsite.errors.permission_denied"
handler404 = "ginsite.errors.page_not_found"
handler500 = "ginsite.overload.server_error"
